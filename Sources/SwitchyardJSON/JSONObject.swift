/// The members of a JSON object, in the order they were added, each key once.
///
/// ```swift
/// var members: JSONObject = ["transport": .string("curl")]
/// members["status"] = .integer(200)            // appended: {"transport":"curl","status":200}
/// members["transport"] = .string("ahc")        // replaced in place
/// ```
///
/// The members are an array: reading or setting a key searches it (linear in the member count,
/// which suits the small objects of API payloads and reports); equality and hashing ignore the
/// order, so two objects with the same members are equal.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// The members in order.
    private var members: [(key: String, value: JSONValue)]

    /// Creates an object of `members`, in their order; a repeated key replaces the earlier value
    /// in the earlier one's place.
    /// - Parameter members: Keys and values.
    public init(_ members: some Sequence<(String, JSONValue)>) {
        self.members = []
        var positions: [String: Int] = [:]
        for (key, value) in members {
            if let position = positions[key] {
                self.members[position].value = value
            } else {
                positions[key] = self.members.count
                self.members.append((key, value))
            }
        }
    }

    /// Creates an object from a literal, members in the literal's order (a repeated key replaces
    /// the earlier value).
    /// - Parameter elements: The literal's keys and values.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// The value of `key`, or `nil` when there is no such member. Setting a new key appends the
    /// member; setting an existing one replaces its value in place; setting `nil` removes it.
    public subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            let position = members.firstIndex { $0.key == key }
            switch (position, newValue) {
            case (let position?, let value?): members[position].value = value
            case (let position?, nil): members.remove(at: position)
            case (nil, let value?): members.append((key, value))
            case (nil, nil): break
            }
        }
    }

    /// The position of the first member.
    public var startIndex: Int { members.startIndex }

    /// The position after the last member.
    public var endIndex: Int { members.endIndex }

    /// The member at `position`.
    public subscript(position: Int) -> (key: String, value: JSONValue) { members[position] }

    /// Whether both objects have the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    /// Hashes the members in a way that does not depend on their order.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in members {
            var memberHasher = hasher
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
