import Switchyard
import SwitchyardAuth
import SwitchyardCache
import SwitchyardCurl
import SwitchyardTransfers

// The *A tour of the package* article, "HTTP cache", "Token refresh", "Uploads and downloads":
// compiled (they name api.example.com); the stand-ins (`showBanner(age:)`, `ExampleSession`,
// `ProgressBar`) are in StandIns.swift.
func readmeCache(cachesPath: String, userID: String) async throws {
    let cache = HTTPCache(store: try DiskCacheStore(directory: cachesPath + "/http"))
    let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [.cache(cache)]))
    cache.partition = userID  // on sign-in; cache.removeAll(partition:) on sign-out

    var request = try Request(url: "https://api.example.com/feed")
    request.options.cachePolicy = .staleIfError  // the stored copy when the network fails
    let response = try await client.send(request)
    if response.context.provenance.source == .stale { showBanner(age: response.context.provenance.age) }
}

func readmeTokenRefresh(session: ExampleSession) throws -> Client {
    let auth = AuthPlugin(scope: RequestScope(hosts: ["api.example.com"]), provider: session)  // session: CredentialProvider
    let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [.bearerAuth(auth)]))
    return client
}

func readmeDownload(client: Client, bar: ProgressBar) async throws {
    let download = client.download(try Request(url: "https://example.com/big.iso"), to: "big.iso")
    Task { @MainActor in for await update in download.progress { bar.fraction = update.fractionCompleted ?? 0 } }
    download.start()  // download.pause() / download.resume()
    let result = try await download.result()
    _ = result
}

func readmeUpload(client: Client) async throws {
    let upload = try client.upload(try Request(method: .post, url: "https://example.com/videos"), fromFile: "movie.mp4")
    upload.start()  // upload.pause() / upload.resume()
    let uploaded = try await upload.result()  // uploaded.resumedFrom: the offsets it continued from
    _ = uploaded
}
