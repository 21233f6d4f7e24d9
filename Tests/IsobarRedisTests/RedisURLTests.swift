import IsobarRedis
import Testing

struct RedisURLTests {
    @Test func readsEveryPart() throws {
        let url = try RedisURL(parsing: "redis://worker:s%40cret@cache.internal:6380/2")
        #expect(url.host == "cache.internal")
        #expect(url.port == 6380)
        #expect(url.database == 2)
        #expect(url.user == "worker")
        #expect(url.password == "s@cret")
    }

    @Test func defaultsToPort6379AndDatabase0() throws {
        let url = try RedisURL(parsing: "redis://localhost")
        #expect((url.host, url.port, url.database, url.user, url.password) == ("localhost", 6379, 0, nil, nil))
        #expect(try RedisURL(parsing: "redis://[::1]:7000/").host == "::1")
    }

    @Test func aPasswordWithoutAUserIsThePassword() throws {
        #expect(try RedisURL(parsing: "redis://:hunter2@h").password == "hunter2")
        #expect(try RedisURL(parsing: "redis://hunter2@h").password == "hunter2")
        #expect(try RedisURL(parsing: "redis://:hunter2@h").user == nil)
    }

    @Test func thePasswordIsNeverShown() throws {
        for text in ["redis://worker:hunter2@h:1/3", "redis://:hunter2@h", "redis://hunter2@h"] {
            let url = try RedisURL(parsing: text)
            #expect(!url.masked.contains("hunter2"))
            #expect(!"\(url)".contains("hunter2"))
            #expect(url.masked.contains("***"))
        }
        #expect(try RedisURL(parsing: "redis://worker:hunter2@h:1/3").masked == "redis://worker:***@h:1/3")
    }

    @Test func refusesTLSClearly() {
        #expect { try RedisURL(parsing: "rediss://:hunter2@h:6380/0") } throws: { error in
            let message = (error as? RedisURLError)?.message ?? ""
            return message.contains("rediss://") && message.contains("TLS") && !message.contains("hunter2")
        }
    }

    @Test(arguments: ["http://h", "h:6379", "redis://", "redis://h:0", "redis://h:70000", "redis://h:port", "redis://h/x",
                      "redis://:%zz@h", "redis://[::1", "redis://h/16000"])
    func refusesBadURLs(_ text: String) {
        #expect(throws: RedisURLError.self) { try RedisURL(parsing: text) }
    }

    @Test func errorsNeverHoldThePassword() {
        #expect { try RedisURL(parsing: "redis://u:hunter2@h:notaport") } throws: { error in
            !((error as? RedisURLError)?.message.contains("hunter2") ?? true)
        }
    }
}
