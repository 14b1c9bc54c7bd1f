import Foundation
import HTTPTypes
import Switchyard
import SwitchyardConformance
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Sources/Switchyard/Switchyard.docc/WriteOrWrapATransport.md: the wrapped stack runs a few
// conformance checks against the loopback server (the whole suite over it is in the article,
// compiled in Tests/DocumentationExamples).

func legacyTransport(session: URLSession) -> ClosureTransport {
    // doc:closure-transport
    let legacy = ClosureTransport { request, context in
        guard let url = URL(string: request.head.url?.absoluteString ?? "") else {
            throw SwitchyardError.invalidRequest("no URL")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.head.method.rawValue
        for field in request.head.headerFields { urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName) }
        if let body = request.body { urlRequest.httpBody = Data(try await body.collect(upTo: 16 << 20)) }
        let (data, urlResponse) = try await session.data(for: urlRequest)  // the stack you already have
        guard let http = urlResponse as? HTTPURLResponse else { throw SwitchyardError.protocolViolation("not HTTP") }
        var fields = HTTPFields()
        for case (let name as String, let value as String) in http.allHeaderFields {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return Response(status: .init(code: http.statusCode), headerFields: fields, body: Array(data))
    }
    // end
    return legacy
}

@Suite struct TransportExamples {
    @Test func aWrappedStackPassesTheBasicChecks() async throws {
        // doc:conformance-subset
        let subject = ConformanceSubject(name: "legacy") { legacyTransport(session: URLSession(configuration: .ephemeral)) }
        for id in ["get", "methods-with-bodies", "no-content"] {
            try await #require(TransportConformance.check(id)).verify(on: subject)
        }
        // end
    }
}
