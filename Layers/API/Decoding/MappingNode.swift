/// A ``JSONMapping`` compiled into a tree over the paths' leading keys, so each JSON object on the
/// way is opened once however many fields sit below it.
final class MappingNode<Model>: Sendable {
    /// A field whose last leading key is read in this node's object; `rest` are its steps after that
    /// key (indices, `[*]`, and the keys below them).
    struct Leaf: Sendable {
        let key: AnyCodingKey
        let rest: ArraySlice<JSONPath.Segment>
        let field: JSONField<Model>
    }

    let leaves: [Leaf]
    let children: [(key: AnyCodingKey, node: MappingNode<Model>)]
    /// Fields whose path starts with an index or `[*]` (only at the root).
    let rootFields: [JSONField<Model>]
    /// Every field at or below this node, for defaults when the node's object is absent.
    let allFields: [JSONField<Model>]

    convenience init(_ fields: [JSONField<Model>]) {
        self.init(
            fields.filter { Self.leadingKeys($0.path) > 0 }, depth: 0,
            rootFields: fields.filter { Self.leadingKeys($0.path) == 0 })
    }

    private init(_ fields: [JSONField<Model>], depth: Int, rootFields: [JSONField<Model>]) {
        self.rootFields = rootFields
        self.allFields = fields
        var leaves: [Leaf] = []
        var groups: [(key: String, fields: [JSONField<Model>])] = []
        for field in fields {
            let segments = field.path.segments
            guard case .key(let key) = segments[depth] else { continue }  // leading keys only
            if Self.leadingKeys(field.path) == depth + 1 {
                leaves.append(Leaf(key: AnyCodingKey(key), rest: segments[(depth + 1)...], field: field))
            } else if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].fields.append(field)
            } else {
                groups.append((key, [field]))
            }
        }
        self.leaves = leaves
        self.children = groups.map { (AnyCodingKey($0.key), MappingNode($0.fields, depth: depth + 1, rootFields: [])) }
    }

    /// How many keys the path starts with.
    private static func leadingKeys(_ path: JSONPath) -> Int {
        path.segments.firstIndex { if case .key = $0 { false } else { true } } ?? path.segments.count
    }

    /// Fills `model` from the model's decoder.
    func apply(to model: inout Model, decoder: any Decoder) throws {
        for field in rootFields { try field.decodeFromRoot(&model, decoder) }
        guard !leaves.isEmpty || !children.isEmpty else { return }
        try apply(to: &model, container: decoder.container(keyedBy: AnyCodingKey.self))
    }

    private func apply(to model: inout Model, container: KeyedDecodingContainer<AnyCodingKey>) throws {
        for index in leaves.indices {
            let field = leaves[index].field
            try field.decode(&model, container, leaves[index].key, leaves[index].rest, field.isLenient)
        }
        for (key, node) in children {
            // The common case, an object that is there, costs one lookup; absence is sorted out on the throw.
            let nested: KeyedDecodingContainer<AnyCodingKey>
            do {
                nested = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)
            } catch {
                guard try !container.contains(key) || container.decodeNil(forKey: key) else { throw error }
                try node.applyDefaults(to: &model, absence: error)
                continue
            }
            try node.apply(to: &model, container: nested)
        }
    }

    /// The node's object is absent or null: optional fields get their defaults, a required one fails.
    private func applyDefaults(to model: inout Model, absence: any Error) throws {
        for field in allFields {
            guard field.isRequired else {
                field.applyDefault(&model)
                continue
            }
            throw MappedFieldError(field: field.name, underlying: absence)
        }
    }
}
