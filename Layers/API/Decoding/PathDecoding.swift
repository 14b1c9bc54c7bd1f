/// Decodes a value that sits at a ``JSONPath`` inside the document a `Decoder` reads, through the
/// decoder's own containers: no wrapper structs, no second parse, and errors whose coding path is
/// the full JSON path.
///
/// A `[*]` step needs an array type at that point (`[String]` for `authors[*].name`).
@usableFromInline
enum PathDecoding {
    /// The value of type `T` at `path` below `decoder`'s value.
    @usableFromInline
    static func decode<T: Decodable>(_ type: T.Type, at path: ArraySlice<JSONPath.Segment>, from decoder: any Decoder) throws -> T {
        guard let first = path.first else { return try T(from: decoder) }
        switch first {
        case .key(let key):
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            return try decode(type, forKey: AnyCodingKey(key), in: container, then: path.dropFirst())
        case .index, .each:
            var container = try decoder.unkeyedContainer()
            return try decode(type, at: path, in: &container)
        }
    }

    /// The value at `key` of `container`, followed by the steps in `rest`.
    @usableFromInline
    static func decode<T: Decodable>(
        _ type: T.Type, forKey key: AnyCodingKey, in container: KeyedDecodingContainer<AnyCodingKey>,
        then rest: ArraySlice<JSONPath.Segment>
    ) throws -> T {
        guard let next = rest.first else { return try container.decode(type, forKey: key) }
        switch next {
        case .key(let nextKey):
            let nested = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)
            return try decode(type, forKey: AnyCodingKey(nextKey), in: nested, then: rest.dropFirst())
        case .index, .each:
            var nested = try container.nestedUnkeyedContainer(forKey: key)
            return try decode(type, at: rest, in: &nested)
        }
    }

    /// The value reached by `path` (which starts with an index or `[*]`) in an array container.
    static func decode<T: Decodable>(
        _ type: T.Type, at path: ArraySlice<JSONPath.Segment>, in container: inout any UnkeyedDecodingContainer
    ) throws -> T {
        switch path.first {
        case .index(let index)?:
            for _ in 0..<index {
                guard !container.isAtEnd else { throw outOfRange(index, in: container) }
                _ = try container.decode(SkippedValue.self)
            }
            guard !container.isAtEnd else { throw outOfRange(index, in: container) }
            return try decodeElement(type, then: path.dropFirst(), in: &container)
        case .each?:
            guard let arrayType = type as? any DecodableArray.Type else {
                throw DecodingError.typeMismatch(
                    type,
                    DecodingError.Context(
                        codingPath: container.codingPath,
                        debugDescription: "A [*] step needs an array type, not \(type)."))
            }
            return try decodeEach(arrayType, then: path.dropFirst(), in: &container) as! T  // the type was checked above
        default:
            return try decodeElement(type, then: path, in: &container)
        }
    }

    private static func decodeEach<A: DecodableArray>(
        _ type: A.Type, then rest: ArraySlice<JSONPath.Segment>, in container: inout any UnkeyedDecodingContainer
    ) throws -> A {
        var elements: [A.Element] = []
        if let count = container.count { elements.reserveCapacity(count) }
        while !container.isAtEnd {
            elements.append(try decodeElement(A.Element.self, then: rest, in: &container))
        }
        return A(decodedElements: elements)
    }

    /// The next element of `container`, followed by the steps in `rest`.
    private static func decodeElement<T: Decodable>(
        _ type: T.Type, then rest: ArraySlice<JSONPath.Segment>, in container: inout any UnkeyedDecodingContainer
    ) throws -> T {
        guard let next = rest.first else { return try container.decode(type) }
        switch next {
        case .key(let key):
            let nested = try container.nestedContainer(keyedBy: AnyCodingKey.self)
            return try decode(type, forKey: AnyCodingKey(key), in: nested, then: rest.dropFirst())
        case .index, .each:
            var nested = try container.nestedUnkeyedContainer()
            return try decode(type, at: rest, in: &nested)
        }
    }

    private static func outOfRange(_ index: Int, in container: any UnkeyedDecodingContainer) -> DecodingError {
        .valueNotFound(
            Any.self,
            DecodingError.Context(
                codingPath: container.codingPath + [AnyCodingKey(index: index)],
                debugDescription: "The array has only \(container.count ?? 0) elements."))
    }
}
