public import Switchyard
public import SwitchyardConformance

extension EchoReport {
    /// Decodes the JSON of the loopback server's `/echo` route from a buffered response.
    /// - Parameter response: The response of `/echo`.
    /// - Throws: If the body is not the route's JSON.
    public init(_ response: BufferedResponse) throws {
        try self.init(json: response.body)
    }
}
