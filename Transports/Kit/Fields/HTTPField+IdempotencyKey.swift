public import HTTPTypes

extension HTTPField.Name {
    /// `Idempotency-Key`: marks a non-idempotent request (e.g. a POST) as safe to retry, because
    /// the server de-duplicates requests carrying the same key.
    public static let idempotencyKey = Self("Idempotency-Key")!
}
