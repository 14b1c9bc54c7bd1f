import HTTPTypes
import Switchyard
import SwitchyardCache

/// The CachingAndOffline article's "Keep things out of the store" example, compiled, not run; the
/// stored-fields tests run the same calls against the loopback server.
func cachingArticleKeepOutExample(statementURL: String) throws -> CacheConfiguration {
    var request = try Request(url: statementURL)
    request.options.cacheStoresResponse = false  // this response is never stored

    var configuration = CacheConfiguration()
    configuration.willStore = { request, fields in  // edit what is stored, never what the caller gets
        fields[.setCookie] = nil
    }
    _ = request
    return configuration
}
