/// A coding key made from any string or index: the keys of a ``JSONPath``.
@usableFromInline
struct AnyCodingKey: CodingKey, Hashable, Sendable {
    @usableFromInline let stringValue: String
    @usableFromInline let intValue: Int?

    @usableFromInline
    init(_ string: String) {
        self.stringValue = string
        self.intValue = nil
    }

    init(index: Int) {
        self.stringValue = String(index)
        self.intValue = index
    }

    @usableFromInline
    init?(stringValue: String) { self.init(stringValue) }

    @usableFromInline
    init?(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// A value that decodes from anything without reading it: skips an array element.
struct SkippedValue: Decodable {
    init(from decoder: any Decoder) throws {}
}

/// An array whose elements are decodable: what a `[*]` step decodes into.
protocol DecodableArray {
    associatedtype Element: Decodable
    init(decodedElements: [Element])
}

extension Array: DecodableArray where Element: Decodable {
    init(decodedElements: [Element]) { self = decodedElements }
}
