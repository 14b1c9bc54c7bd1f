import Benchmark
import Foundation
import SwitchyardAPI

// The cost of turning a 1 MiB JSON list into models, three ways over the same bytes:
// plain `JSONDecoder` on `Decodable` structs that mirror the JSON (the reference), the same structs
// decoded at the key path `data.list` (no wrapper structs), and a `JSONMapped` model that flattens
// each item through JSON paths. Target: mapping ≤ 1.5× plain.

/// The JSON as it is: wrappers and nested objects.
struct PlainRoot: Decodable {
    struct Data: Decodable { var list: [PlainItem] }
    var code: Int
    var data: Data
}

struct PlainItem: Decodable {
    struct Price: Decodable { var amount: Double; var currency: String }
    struct Info: Decodable {
        struct Author: Decodable { var name: String }
        var authors: [Author]
        var pages: Int
        var subtitle: String?
    }
    var id: String
    var title: String
    var price: Price
    var info: Info
}

/// The model the app wants, fed by JSON paths.
struct MappedItem: JSONMapped {
    var id = ""
    var title = ""
    var price = 0.0
    var currency = ""
    var authors: [String] = []
    var pages = 0
    var subtitle: String?

    static let jsonMapping = JSONMapping<MappedItem>(
        .field(\.id, "id"),
        .field(\.title, "title"),
        .field(\.price, "price.amount"),
        .field(\.currency, "price.currency"),
        .field(\.authors, "info.authors[*].name"),
        .field(\.pages, "info.pages"),
        .field(\.subtitle, "info.subtitle"))
}

/// `{"code":0,"data":{"list":[…]}}` of at least `bytes` bytes.
func makeDocument(bytes: Int) -> [UInt8] {
    var items: [String] = []
    var size = 0
    var index = 0
    while size < bytes {
        let subtitle = index % 3 == 0 ? ",\"subtitle\":\"sub\"" : ""
        let item = "{\"id\":\"item-\(index)\",\"title\":\"Title number \(index)\",\"price\":{\"amount\":\(Double(index) / 4),"
            + "\"currency\":\"EUR\"},\"info\":{\"authors\":[{\"name\":\"Author \(index)\"},{\"name\":\"Co-author\"}],"
            + "\"pages\":\(100 + index % 400)\(subtitle)}}"
        size += item.utf8.count + 1
        items.append(item)
        index += 1
    }
    return Array(#"{"code":0,"data":{"list":["#.utf8) + Array(items.joined(separator: ",").utf8) + Array("]}}".utf8)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        scalingFactor: .one,
        maxDuration: .seconds(3)
    )
    let document = makeDocument(bytes: 1 << 20)
    let data = Data(document)

    Benchmark("decode-1MiB-plain-JSONDecoder") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONDecoder().decode(PlainRoot.self, from: data))
        }
    }
    Benchmark("decode-1MiB-key-path") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONDecoding.standard.decode([PlainItem].self, from: document, at: "data.list"))
        }
    }
    Benchmark("decode-1MiB-mapped") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONDecoding.standard.decode([MappedItem].self, from: document, at: "data.list"))
        }
    }
}
