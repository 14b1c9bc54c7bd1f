import Foundation
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCurl
import SwitchyardURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// README.md, "Replace your framework": compiled; `chain` is in StandIns.swift.
func readmeReplaceYourFramework(existingSession: URLSession) async throws {
    let overCurl = Client(transport: CurlTransport(), interceptors: chain)  // libcurl
    let overURLSession = Client(transport: URLSessionTransport(), interceptors: chain)  // URLSession
    let overAHC = Client(transport: AsyncHTTPClientTransport(), interceptors: chain)  // AsyncHTTPClient
    let overAppSession = Client(transport: URLSessionTransport(wrapping: existingSession), interceptors: chain)
    _ = (overCurl, overURLSession, overAHC, overAppSession)
}
