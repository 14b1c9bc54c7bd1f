import SwitchyardJSON

/// The table of a ``JSONMapped`` model: property key paths and the JSON paths that feed them.
///
/// Paths that share a prefix (`info.book.title`, `info.book.authors`) walk the shared part once,
/// so a mapping reads each JSON object once, as a synthesised `init(from:)` does.
public struct JSONMapping<Model>: Sendable {
    /// The mapped fields, in declaration order.
    public let fields: [JSONField<Model>]
    private let root: MappingNode<Model>

    /// Creates the table.
    /// - Parameter fields: The fields, e.g. `.field(\.title, "info.book.title")`.
    public init(_ fields: JSONField<Model>...) {
        self.init(fields)
    }

    /// Creates a table whose scalar fields are all lenient (``JSONField/lenient()``): a number
    /// sent as a string, an id sent as a number, `"true"` or `1` for a Bool are converted, and
    /// each conversion is recorded in the ``DecodingReport``.
    /// - Parameters:
    ///   - lenientScalars: Whether every field converts scalars.
    ///   - fields: The fields.
    public init(lenientScalars: Bool, _ fields: JSONField<Model>...) {
        self.init(lenientScalars ? fields.map { $0.lenient() } : fields)
    }

    /// Creates the table from an array of fields.
    /// - Parameter fields: The fields.
    public init(_ fields: [JSONField<Model>]) {
        self.fields = fields
        self.root = MappingNode(fields)
    }

    /// Fills `model` from the JSON value `decoder` reads.
    /// - Parameters:
    ///   - model: The model to fill.
    ///   - decoder: The decoder positioned at the model's JSON.
    /// - Throws: A `DecodingError` (wrapped with the field's name) for the first field that fails.
    public func decode(into model: inout Model, from decoder: any Decoder) throws {
        try root.apply(to: &model, decoder: decoder)
    }
}

/// One mapped property: a key path, the JSON path that feeds it, and what to do when it is absent.
public struct JSONField<Model>: Sendable {
    /// The JSON path, from the model's object.
    public let path: JSONPath
    /// The property, as written in messages (`Book.price`).
    public let name: String
    /// Whether an absent or null value is an error (`false`: the default is used).
    public let isRequired: Bool
    /// Whether a scalar of another JSON type is converted (``lenient()``) rather than an error.
    public private(set) var isLenient = false
    /// Decodes the value at the key in `path`'s last key step (the steps after it are `rest`);
    /// the flag is ``isLenient``.
    @usableFromInline let decode:
        @Sendable (inout Model, KeyedDecodingContainer<AnyCodingKey>, AnyCodingKey, ArraySlice<JSONPath.Segment>, Bool) throws ->
            Void
    /// Decodes the value at the whole `path` from the model's decoder (paths that start with an index).
    @usableFromInline let decodeFromRoot: @Sendable (inout Model, any Decoder) throws -> Void
    /// Sets the property to its default when the value is absent or null.
    @usableFromInline let applyDefault: @Sendable (inout Model) -> Void

    // The constructors are inlinable so that their closures are specialised for the model and the
    // property type in the module that declares the mapping: no generic metadata lookups per field.

    /// A property fed from `path`. For a non-optional property an absent or null value is a
    /// decoding error naming the path; for an optional one it gives `nil` (anywhere along the path).
    ///
    /// A path with a `[*]` step needs an array property (`[String]` for `authors[*].name`).
    /// - Parameters:
    ///   - keyPath: The property.
    ///   - path: Where its value sits, from the model's JSON object.
    /// - Returns: The field.
    @inlinable
    public static func field<Value: Decodable & Sendable>(_ keyPath: any WritableKeyPath<Model, Value> & Sendable, _ path: JSONPath) -> Self
    {
        // An optional property is not required: its fallback is `nil`.
        let none = (Value.self as? any OptionalProtocol.Type)?.nilValue as? Value
        return Self(path: path, keyPath: keyPath, isRequired: none == nil, fallback: none)
    }

    /// A property with a default: an absent or null value (anywhere along the path) gives `default`.
    /// - Parameters:
    ///   - keyPath: The property.
    ///   - path: Where its value sits.
    ///   - default: The value used when the JSON has none.
    /// - Returns: The field.
    @inlinable
    public static func field<Value: Decodable & Sendable>(
        _ keyPath: any WritableKeyPath<Model, Value> & Sendable, _ path: JSONPath, default: Value
    ) -> Self {
        Self(path: path, keyPath: keyPath, isRequired: false, fallback: `default`)
    }

    /// A list property fed from `path` whose elements that fail to decode are left out when
    /// `skippingInvalidElements` (each listed in the ``DecodingReport``) instead of failing the
    /// model; an absent or null list gives `[]`.
    /// - Parameters:
    ///   - keyPath: The property.
    ///   - path: Where the list sits, from the model's JSON object.
    ///   - skippingInvalidElements: Whether bad elements are skipped.
    /// - Returns: The field.
    public static func field<Element: Decodable & Sendable>(
        _ keyPath: any WritableKeyPath<Model, [Element]> & Sendable, _ path: JSONPath, skippingInvalidElements: Bool
    ) -> Self {
        skippingInvalidElements ? Self(path: path, lossyList: keyPath) : field(keyPath, path, default: [])
    }

    init<Element: Decodable & Sendable>(path: JSONPath, lossyList keyPath: any WritableKeyPath<Model, [Element]> & Sendable) {
        precondition(!path.segments.isEmpty, "A mapped field needs a non-empty JSON path.")
        self.path = path
        self.isRequired = false
        let name = Self.name(of: keyPath, path: path)
        self.name = name
        self.decode = { model, container, key, rest, _ in
            do {
                let list =
                    rest.isEmpty
                    ? try container.decodeIfPresent(LossyElements<Element>.self, forKey: key)
                    : try PathDecoding.decode(LossyElements<Element>?.self, forKey: key, in: container, then: rest)
                model[keyPath: keyPath] = list?.elements ?? []
            } catch {
                throw MappedFieldError(field: name, underlying: error)
            }
        }
        self.decodeFromRoot = { model, decoder in
            do {
                model[keyPath: keyPath] = try PathDecoding.decode(LossyElements<Element>.self, at: path.segments[...], from: decoder)
                    .elements
            } catch {
                throw MappedFieldError(field: name, underlying: error)
            }
        }
        self.applyDefault = { model in model[keyPath: keyPath] = [] }
    }

    @inlinable
    init<Value: Decodable & Sendable>(
        path: JSONPath, keyPath: any WritableKeyPath<Model, Value> & Sendable, isRequired: Bool, fallback: Value?
    ) {
        precondition(!path.segments.isEmpty, "A mapped field needs a non-empty JSON path.")
        self.path = path
        self.isRequired = isRequired
        let name = Self.name(of: keyPath, path: path)
        self.name = name
        self.decode = { model, container, key, rest, lenient in
            do {
                guard rest.isEmpty else {
                    model[keyPath: keyPath] = try PathDecoding.decode(Value.self, forKey: key, in: container, then: rest)
                    return
                }
                let value: Value?
                do {
                    value = try Self.leaf(Value.self, key, in: container, required: isRequired)
                } catch let error as DecodingError where lenient {
                    value = try Self.converted(Value.self, key, in: container, failure: error)
                }
                if let value {
                    model[keyPath: keyPath] = value
                } else if let fallback {
                    model[keyPath: keyPath] = fallback
                }
            } catch let error as MappedFieldError {
                throw error
            } catch {
                throw MappedFieldError(field: name, underlying: error)
            }
        }
        self.decodeFromRoot = { model, decoder in
            do {
                model[keyPath: keyPath] = try PathDecoding.decode(Value.self, at: path.segments[...], from: decoder)
            } catch let error as MappedFieldError {
                throw error
            } catch {
                throw MappedFieldError(field: name, underlying: error)
            }
        }
        self.applyDefault = { model in
            if let fallback { model[keyPath: keyPath] = fallback }
        }
    }

    /// This field, converting scalars of another JSON type (a page number sent as `"3"`, an id
    /// sent as a number, `"true"` or `1` for a Bool) instead of failing; each conversion is
    /// recorded in the ``DecodingReport``. Applies to a String, Int, Double or Bool property (or an
    /// optional one) at a path of keys.
    /// - Returns: The lenient field.
    public func lenient() -> Self {
        var copy = self
        copy.isLenient = true
        return copy
    }

    /// A lenient field's value after `failure`: the scalar at `key` converted (and recorded in the
    /// running ``DecodingReport``), else `failure` again. Only on the failure path.
    @usableFromInline
    static func converted<Value>(
        _ type: Value.Type, _ key: AnyCodingKey, in container: KeyedDecodingContainer<AnyCodingKey>, failure: DecodingError
    ) throws -> Value {
        guard case .typeMismatch = failure, let json = try? container.decode(JSONValue.self, forKey: key),
            let converted = ScalarConversion.convert(json, to: Value.self)
        else { throw failure }
        DecodingReport.current?.record(
            .init(
                path: DecodingFailure.describe(container.codingPath + [key]), found: json.summary,
                convertedTo: ScalarConversion.name(of: Value.self)))
        return converted
    }

    /// The value at `key`: `nil` when it is absent or null and not `required` (then it throws).
    ///
    /// Specialised per property type in the declaring module, where the type tests fold away: a
    /// primitive (or optional primitive) takes the container's own overload, the decoder's fast
    /// path, instead of the generic `Decodable` one.
    @inlinable
    static func leaf<Value: Decodable>(
        _ type: Value.Type, _ key: AnyCodingKey, in container: KeyedDecodingContainer<AnyCodingKey>, required: Bool
    ) throws -> Value? {
        // Each cast below converts a value to the type it already has (`Value` is `String`), or
        // wraps it in that type's optional (`Value` is `String?`).
        if Value.self == String.self {
            return try (required ? container.decode(String.self, forKey: key) : container.decodeIfPresent(String.self, forKey: key))
                as! Value?
        }
        if Value.self == String?.self { return try container.decodeIfPresent(String.self, forKey: key).map { $0 as! Value } }
        if Value.self == Double.self {
            return try (required ? container.decode(Double.self, forKey: key) : container.decodeIfPresent(Double.self, forKey: key))
                as! Value?
        }
        if Value.self == Double?.self { return try container.decodeIfPresent(Double.self, forKey: key).map { $0 as! Value } }
        if Value.self == Int.self {
            return try (required ? container.decode(Int.self, forKey: key) : container.decodeIfPresent(Int.self, forKey: key)) as! Value?
        }
        if Value.self == Int?.self { return try container.decodeIfPresent(Int.self, forKey: key).map { $0 as! Value } }
        if Value.self == Bool.self {
            return try (required ? container.decode(Bool.self, forKey: key) : container.decodeIfPresent(Bool.self, forKey: key)) as! Value?
        }
        if Value.self == Bool?.self { return try container.decodeIfPresent(Bool.self, forKey: key).map { $0 as! Value } }
        return required ? try container.decode(type, forKey: key) : try container.decodeIfPresent(type, forKey: key)
    }

    /// `Book.price`, from the key path's description when the runtime gives one, else the path's last key.
    @usableFromInline
    static func name(of keyPath: AnyKeyPath, path: JSONPath) -> String {
        let described = String(describing: keyPath)
        if described.hasPrefix("\\") { return String(described.dropFirst()) }
        if case .key(let last)? = path.segments.last(where: { if case .key = $0 { true } else { false } }) {
            return "\(Model.self).\(last)"
        }
        return "\(Model.self)"
    }
}
