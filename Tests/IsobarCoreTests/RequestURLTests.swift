import IsobarCore
import Testing

@Suite("RequestURL and PercentEncoding")
struct RequestURLTests {
    // MARK: Parsing

    @Test func parsesHTTPSWithPathAndQuery() throws {
        let url = try #require(RequestURL(string: "https://api.open-meteo.com/v1/forecast?latitude=53.9&longitude=27.5667"))
        #expect(url.scheme == "https")
        #expect(url.host == "api.open-meteo.com")
        #expect(url.port == nil)
        #expect(url.path == "/v1/forecast")
        #expect(url.query == [QueryItem("latitude", "53.9"), QueryItem("longitude", "27.5667")])
        #expect(url.authority == "api.open-meteo.com")
    }

    @Test func parsesHTTPWithPortAndLowercasesSchemeAndHost() throws {
        let url = try #require(RequestURL(string: "HTTP://LocalHost:8080/Data/2.5"))
        #expect(url.scheme == "http")
        #expect(url.host == "localhost")
        #expect(url.port == 8080)
        #expect(url.path == "/Data/2.5")
        #expect(url.query.isEmpty)
        #expect(url.authority == "localhost:8080")
        #expect(url.string == "http://localhost:8080/Data/2.5")
    }

    @Test func parsesIPv6Hosts() throws {
        let withPort = try #require(RequestURL(string: "http://[::1]:8080/path"))
        #expect(withPort.host == "::1")
        #expect(withPort.port == 8080)
        #expect(withPort.authority == "[::1]:8080")
        #expect(withPort.string == "http://[::1]:8080/path")
        let bare = try #require(RequestURL(string: "https://[2001:DB8::1]"))
        #expect(bare.host == "2001:db8::1")
        #expect(bare.port == nil)
        #expect(bare.path == "/")
        #expect(bare.string == "https://[2001:db8::1]/")
    }

    @Test func emptyPathBecomesSlash() throws {
        #expect(try #require(RequestURL(string: "https://example.com")).path == "/")
        #expect(try #require(RequestURL(string: "https://example.com?q=1")).path == "/")
        #expect(try #require(RequestURL(string: "https://example.com?q=1")).query == [QueryItem("q", "1")])
    }

    @Test func pathPrefixIsDecoded() throws {
        let url = try #require(RequestURL(string: "https://example.com/weather%20data/caf%C3%A9/"))
        #expect(url.path == "/weather data/café/")
        #expect(url.string == "https://example.com/weather%20data/caf%C3%A9/")
    }

    @Test func queryDecodesPlusAndPercentEscapes() throws {
        let url = try #require(RequestURL(string: "https://example.com/geo?name=New+York&alt=San%20Jos%C3%A9&plus=%2B&amp=a%26b&eq=x%3Dy&flag&empty="))
        #expect(url.query == [
            QueryItem("name", "New York"), QueryItem("alt", "San José"), QueryItem("plus", "+"), QueryItem("amp", "a&b"),
            QueryItem("eq", "x=y"), QueryItem("flag", ""), QueryItem("empty", ""),
        ])
    }

    @Test func valueMayContainEqualsSign() throws {
        let url = try #require(RequestURL(string: "https://example.com/?token=a=b=c"))
        #expect(url.query == [QueryItem("token", "a=b=c")])
    }

    @Test func fragmentIsDropped() throws {
        let url = try #require(RequestURL(string: "https://example.com/p?q=1#section"))
        #expect(url.path == "/p")
        #expect(url.query == [QueryItem("q", "1")])
        #expect(url.string == "https://example.com/p?q=1")
    }

    @Test(arguments: [
        "ftp://example.com/file",
        "file:///etc/passwd",
        "example.com/path",
        "https:/example.com",
        "https//example.com",
        "https://",
        "https:///path",
        "https://:8080/path",
        "https://example.com:abc/",
        "https://example.com:0/",
        "https://example.com:65536/",
        "https://example.com:/",
        "https://example.com:-1/",
        "https://user:pw@example.com/",
        "https://user@example.com/",
        "https://example.com/%zz",
        "https://example.com/%4",
        "https://example.com/?q=%zz",
        "https://example.com/?q%G1=1",
        "https://example.com/?q=%",
        "https://[::1/path",
        "https://[::1]x/path",
        "https://[::1]:port/",
        "https://example.com/%FF",
        "",
    ])
    func rejectsWhatIsNotAnHTTPURL(text: String) {
        #expect(RequestURL(string: text) == nil)
    }

    @Test func textBeyondASCIIIsKeptWhole() throws {
        let url = try #require(RequestURL(string: "HtTpS://CAFÉ.Example:8443/été/à?q=é:1&ß=ü#fin"))
        #expect(url.scheme == "https")
        #expect(url.host == "café.example")
        #expect(url.port == 8443)
        #expect(url.path == "/été/à")
        #expect(url.query == [QueryItem("q", "é:1"), QueryItem("ß", "ü")])
        #expect(RequestURL(string: "httpś://example.com/") == nil)
        #expect(RequestURL(string: "https://exämple.com:8é/") == nil)
    }

    @Test func acceptsTheLargestPort() throws {
        #expect(try #require(RequestURL(string: "http://example.com:65535/")).port == 65_535)
        #expect(try #require(RequestURL(string: "http://example.com:1/")).port == 1)
    }

    // MARK: Building

    @Test func appendingPathWithAndWithoutTrailingSlash() throws {
        let query = [QueryItem("q", "Minsk")]
        for base in ["https://example.com/data/2.5", "https://example.com/data/2.5/"] {
            let url = try #require(RequestURL(string: base + "?old=1"))
            for suffix in ["forecast", "/forecast"] {
                let result = url.appending(path: suffix, query: query)
                #expect(result.path == "/data/2.5/forecast", "\(base) + \(suffix)")
                #expect(result.query == query)
                #expect(result.string == "https://example.com/data/2.5/forecast?q=Minsk")
            }
        }
        let root = try #require(RequestURL(string: "https://example.com"))
        #expect(root.appending(path: "v1/forecast", query: []).string == "https://example.com/v1/forecast")
        // The original is unchanged.
        #expect(root.path == "/")
    }

    @Test func stringEncodesQueryNamesAndValues() throws {
        var url = try #require(RequestURL(string: "https://example.com/search"))
        url.query = [
            QueryItem("name", "San José"),
            QueryItem("a&b", "c=d"),
            QueryItem("path", "x/y?z#w"),
            QueryItem("plus", "1+1"),
            QueryItem("list", "temperature_2m,rain"),
            QueryItem("safe", "AZaz09-._~"),
            QueryItem("pct", "100%"),
        ]
        #expect(url.string == "https://example.com/search?name=San%20Jos%C3%A9&a%26b=c%3Dd&path=x%2Fy%3Fz%23w&plus=1%2B1"
            + "&list=temperature_2m,rain&safe=AZaz09-._~&pct=100%25")
        #expect(url.description == url.string)
    }

    @Test func stringEncodesPath() throws {
        var url = try #require(RequestURL(string: "https://example.com/"))
        url.path = "/a b/é/x?y#z/,+&=~"
        #expect(url.string == "https://example.com/a%20b/%C3%A9/x%3Fy%23z/%2C%2B%26%3D~")
    }

    @Test func removingQueryNames() throws {
        let url = try #require(RequestURL(string: "https://example.com/f?lat=1&appid=SECRET&lon=2&appid=AGAIN&units=metric"))
        let removed = url.removing(queryNames: ["appid", "units"])
        #expect(removed.query == [QueryItem("lat", "1"), QueryItem("lon", "2")])
        #expect(removed.string == "https://example.com/f?lat=1&lon=2")
        #expect(url.removing(queryNames: []) == url)
        #expect(url.removing(queryNames: ["absent"]) == url)
        let all = url.removing(queryNames: ["lat", "lon", "appid", "units"])
        #expect(all.string == "https://example.com/f")
    }

    @Test func roundTripOfTrickyValues() throws {
        let values = [
            "", " ", "+", "%", "%20", "&", "=", "?", "#", "/", ",", "a b+c", "é", "東京", "🌧", "a&b=c", "100%", "~-._",
            "\"quoted\"", "semi;colon", "line\nbreak", "tab\t", "[::1]",
        ]
        let base = try #require(RequestURL(string: "https://Example.com:8443/v1/"))
        for value in values {
            var url = base
            url.path = "/v1/" + value
            url.query = [QueryItem(value.isEmpty ? "k" : value, value), QueryItem("second", value)]
            let reparsed = try #require(RequestURL(string: url.string), "\(url.string)")
            #expect(reparsed == url, "\(value.debugDescription) → \(url.string)")
        }
    }

    // MARK: PercentEncoding

    @Test func encodeKeepsOnlyTheSafeBytes() {
        #expect(PercentEncoding.encode("a b/c,d", keeping: PercentEncoding.pathSafe) == "a%20b/c%2Cd")
        #expect(PercentEncoding.encode("a b/c,d", keeping: PercentEncoding.querySafe) == "a%20b%2Fc,d")
        #expect(PercentEncoding.encode("é", keeping: []) == "%C3%A9")
        #expect(PercentEncoding.encode("\u{0}\u{7F}", keeping: PercentEncoding.querySafe) == "%00%7F")
        // Safe runs at either end, between escapes, alone, and none at all.
        #expect(PercentEncoding.encode(" ab  c ", keeping: PercentEncoding.querySafe) == "%20ab%20%20c%20")
        #expect(PercentEncoding.encode("temperature_2m,is_day", keeping: PercentEncoding.querySafe) == "temperature_2m,is_day")
        #expect(PercentEncoding.encode("", keeping: PercentEncoding.querySafe) == "")
    }

    @Test func decode() {
        #expect(PercentEncoding.decode("a%20b+c") == "a b+c")
        #expect(PercentEncoding.decode("a%20b+c", plusIsSpace: true) == "a b c")
        #expect(PercentEncoding.decode("%c3%A9") == "é")
        #expect(PercentEncoding.decode("%2") == nil)
        #expect(PercentEncoding.decode("%") == nil)
        #expect(PercentEncoding.decode("%g0") == nil)
        #expect(PercentEncoding.decode("%C3") == nil) // a lone lead byte is not UTF-8
        #expect(PercentEncoding.decode("") == "")
    }

    @Test func everyByteIsEncodedByItsSet() {
        for (safe, name) in [(PercentEncoding.pathSafe, "path"), (PercentEncoding.querySafe, "query"), (Set<UInt8>([0x41, 0xC3]), "other")] {
            for scalar in (0..<128).compactMap(Unicode.Scalar.init) {
                let byte = UInt8(scalar.value)
                let hex = String(byte, radix: 16, uppercase: true)
                let expected = safe.contains(byte) ? String(scalar) : "%" + (hex.count == 1 ? "0" + hex : hex)
                #expect(PercentEncoding.encode(String(scalar), keeping: safe) == expected, "\(name) \(byte)")
            }
        }
        // Bytes above 127 are never safe in the sets URLs use: every byte of a multi-byte character is escaped.
        #expect(PercentEncoding.encode("é€", keeping: PercentEncoding.querySafe) == "%C3%A9%E2%82%AC")
        #expect(PercentEncoding.encode("é/x y,~", keeping: PercentEncoding.pathSafe) == "%C3%A9/x%20y%2C~")
        #expect(PercentEncoding.encode("é/x y,~", keeping: PercentEncoding.querySafe) == "%C3%A9%2Fx%20y,~")
    }

    @Test func urlTextEncodesPathAndEveryQueryItem() throws {
        var url = try #require(RequestURL(string: "https://Example.com:8443/a b/"))
        url = url.appending(path: "/v1/ü", query: [QueryItem("lat", "53.9"), QueryItem("list", "a,b"), QueryItem("q&", "x=y z/é")])
        #expect(url.string == "https://example.com:8443/a%20b/v1/%C3%BC?lat=53.9&list=a,b&q%26=x%3Dy%20z%2F%C3%A9")
        #expect(RequestURL(string: url.string) == url)
    }
}
