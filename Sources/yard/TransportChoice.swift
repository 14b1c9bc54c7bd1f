import ArgumentParser
import Switchyard
import SwitchyardCurl

/// The transports `yard` can drive, by their command-line names.
enum TransportChoice: String, ExpressibleByArgument, CaseIterable {
    case curl

    /// Creates a fresh transport of this kind.
    func makeTransport() -> any Transport {
        switch self {
        case .curl: CurlTransport()
        }
    }
}
