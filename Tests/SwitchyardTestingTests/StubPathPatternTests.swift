import SwitchyardTesting
import Testing

@Suite struct StubPathPatternTests {
    @Test(arguments: [
        ("/users", "/users", true),
        ("/users", "/users?page=2", true),
        ("/users", "/users/42", false),
        ("/users", "/users/", false),
        ("/", "/", true),
        ("/", "/x", false),
        ("/users/*", "/users/42", true),
        ("/users/*", "/users", false),
        ("/users/*", "/users/", false),
        ("/users/*", "/users/42/posts", false),
        ("/users/*/posts", "/users/42/posts", true),
        ("/users/*/posts", "/users/42/likes", false),
        ("/files/**", "/files", true),
        ("/files/**", "/files/a", true),
        ("/files/**", "/files/a/b/c?x=1", true),
        ("/files/**", "/filesystem", false),
        ("/**/avatar", "/users/42/avatar", true),
        ("/**/avatar", "/avatar", true),
        ("/**/avatar", "/users/42/banner", false),
        ("/search?q=swift", "/search?q=swift", true),
        ("/search?q=swift", "/search?q=rust", false),
        ("/search?q=swift", "/search", false),
        ("/Users", "/users", false)
    ])
    func matches(pattern: String, path: String, expected: Bool) {
        #expect(StubPathPattern(pattern).matches(path: path) == expected, "\(pattern) vs \(path)")
    }

    @Test func describesItselfAsWritten() {
        let pattern: StubPathPattern = "/users/*"
        #expect(pattern.description == "/users/*")
    }
}
