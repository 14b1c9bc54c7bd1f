import ArgumentParser
import Foundation

/// A comma-separated option value such as `1,16,64` or `small,1m`, each item parsed as `Element`.
struct CommaSeparated<Element: ExpressibleByArgument>: ExpressibleByArgument {
    let values: [Element]

    init(_ values: [Element]) { self.values = values }

    init?(argument: String) {
        var values: [Element] = []
        for item in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Element(argument: item.trimmingCharacters(in: .whitespaces)) else { return nil }
            values.append(value)
        }
        guard !values.isEmpty else { return nil }
        self.values = values
    }

    var defaultValueDescription: String { values.map(\.defaultValueDescription).joined(separator: ",") }
}

/// Some of a command-line enumeration's cases, comma-separated, or `all` of them.
struct Selection<Choice: ExpressibleByArgument & CaseIterable>: ExpressibleByArgument {
    let values: [Choice]

    init(_ values: [Choice]) { self.values = values }

    init?(argument: String) {
        if argument == "all" {
            values = Array(Choice.allCases)
        } else if let list = CommaSeparated<Choice>(argument: argument) {
            values = list.values
        } else {
            return nil
        }
    }

    var defaultValueDescription: String { values.map(\.defaultValueDescription).joined(separator: ",") }
    static var allValueStrings: [String] { Choice.allValueStrings + ["all"] }
}

/// A whole number above zero (a concurrency level, a number of requests in flight).
struct PositiveCount: ExpressibleByArgument, CustomStringConvertible {
    let value: Int

    init(_ value: Int) { self.value = value }

    init?(argument: String) {
        guard let value = Int(argument), value > 0 else { return nil }
        self.value = value
    }

    var description: String { "\(value)" }
    var defaultValueDescription: String { description }
}
