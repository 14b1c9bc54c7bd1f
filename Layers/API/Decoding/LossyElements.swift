/// A JSON list decoded element by element, leaving out the elements that fail (each recorded in
/// the running ``DecodingReport``) instead of failing the whole list.
struct LossyElements<Element: Decodable>: Decodable {
    var elements: [Element] = []

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let path = DecodingFailure.describe(decoder.codingPath)
        while !container.isAtEnd {
            let index = container.currentIndex
            do {
                elements.append(try container.decode(Element.self))
            } catch {
                // A failed element leaves the container where it was: step over it.
                if container.currentIndex == index { _ = try container.decode(SkippedValue.self) }
                let reason = (error as? DecodingError).map { DecodingFailure.describe($0, in: nil) } ?? "\(error)"
                DecodingReport.current?.record(.init(path: path, index: index, reason: reason))
            }
        }
    }
}
