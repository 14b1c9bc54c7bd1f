import Switchyard
import SwitchyardAuth
import SwitchyardCache
import SwitchyardCurl
import SwitchyardTransfers

// README.md, "HTTP cache", "Token refresh", "Uploads and downloads": compiled (they name
// api.example.com); the stand-ins (`showBanner(age:)`, `ExampleSession`, `ProgressBar`) are in StandIns.swift.
// The README still shows `CachePlugin.make(cache:)` and `auth.plugin`: these copies stay verbatim
// (deprecated, so they compile without warnings) until the README shows `.cache(cache)` and
// `.bearerAuth(auth)`.
@available(*, deprecated, message: "README.md's example still uses CachePlugin.make; update both together")
func readmeCache(cachesPath: String, userID: String) async throws {
    let cache = HTTPCache(store: try DiskCacheStore(directory: cachesPath + "/http"))
    let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [CachePlugin.make(cache: cache)]))
    cache.partition = userID  // on sign-in; cache.removeAll(partition:) on sign-out

    var request = try Request(url: "https://api.example.com/feed")
    request.options.cachePolicy = .staleIfError  // the stored copy when the network fails
    let response = try await client.send(request)
    if response.context.provenance.source == .stale { showBanner(age: response.context.provenance.age) }
}

@available(*, deprecated, message: "README.md's example still uses AuthPlugin.plugin; update both together")
func readmeTokenRefresh(session: ExampleSession) throws -> Client {
    let auth = AuthPlugin(scope: RequestScope(hosts: ["api.example.com"]), provider: session)  // session: CredentialProvider
    let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [auth.plugin]))
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
