// Uses one public symbol of each product the build links, so a product that built but cannot be
// imported fails here.
import Switchyard
import SwitchyardAPI
import SwitchyardCurl
import SwitchyardTesting

#if TRAIT_AsyncHTTPClient
import SwitchyardAsyncHTTPClient
#endif
#if TRAIT_Cache
import SwitchyardCache
#endif

let client = Client(transport: StubTransport.status(.ok))
print(SwitchyardVersion.current, type(of: client.transport), CurlTransport.self, APIClient.self)
#if TRAIT_AsyncHTTPClient
print(AsyncHTTPClientTransport.self)
#endif
#if TRAIT_Cache
print(HTTPCache.self)
#endif
