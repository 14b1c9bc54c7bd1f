extension HTTPBody {
    /// Reads the whole body into memory, refusing to grow past `limit` bytes.
    ///
    /// A body whose declared length already exceeds `limit` fails before reading anything.
    /// - Parameter limit: The largest body accepted.
    /// - Returns: The body's bytes.
    /// - Throws: ``SwitchyardError/Kind/responseTooLarge`` past the limit, or the stream's own error.
    public func collect(upTo limit: Int64) async throws -> [UInt8] {
        if case .known(let count) = length, count > limit { throw SwitchyardError.responseTooLarge(limit: limit) }
        if case .bytes(let bytes) = storage, beginIteration() { return Array(bytes) }
        var result: [UInt8] = []
        if case .known(let count) = length { result.reserveCapacity(Int(count)) }
        for try await chunk in self {
            guard Int64(result.count + chunk.count) <= limit else {
                throw SwitchyardError.responseTooLarge(limit: limit)
            }
            result.append(contentsOf: chunk)
        }
        return result
    }
}
