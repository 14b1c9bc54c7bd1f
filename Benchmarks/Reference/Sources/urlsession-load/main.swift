// URLSession used directly (FoundationNetworking on Linux): the reference for Switchyard's URLSession
// transport. An ephemeral session with as many connections per host as tasks (the default is 6).
import Foundation
import LoadShape

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct UnexpectedStatus: Error { let status: Int }

let arguments = LoadArguments.fromCommandLine()
let sessionConfiguration = URLSessionConfiguration.ephemeral
sessionConfiguration.httpMaximumConnectionsPerHost = max(6, arguments.concurrency)
sessionConfiguration.urlCache = nil
let session = URLSession(configuration: sessionConfiguration)
guard let url = URL(string: arguments.url) else {
    FileHandle.standardError.write(Data("not a URL: \(arguments.url)\n".utf8))
    exit(64)
}

await measure(client: "urlsession", arguments) {
    let (data, response) = try await session.data(from: url)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard status == 200 else { throw UnexpectedStatus(status: status) }
    return data.count
}
session.finishTasksAndInvalidate()
