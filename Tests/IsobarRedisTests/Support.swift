import FoundationEssentials
import IsobarCore
import IsobarEngine
@testable import IsobarRedis
import IsobarTestKit
import Testing

/// True when `redis-server` is installed; the tests that need one are skipped, with this said, when it is not.
let redisInstalled = RedisTestServer.executable != nil

/// The message shown for each skipped test.
let redisMissing: Comment = "SKIPPED: redis-server is not installed (apt-get install redis-server; scripts/install-deps.sh does it)"

/// A store on a new server, and the server.
func storeOnNewServer(timeoutMilliseconds: Int = 2000) throws -> (RedisStore, RedisTestServer) {
    let server = try RedisTestServer()
    return (RedisStore(url: try RedisURL(parsing: server.url), timeoutMilliseconds: timeoutMilliseconds), server)
}

/// One raw command on `server`, for checks from outside the store.
func raw(_ server: RedisTestServer, _ arguments: [String]) async throws -> RedisReply {
    try await RedisConnection(url: try RedisURL(parsing: server.url), timeoutMilliseconds: 1000).command(arguments)
}

/// Every key on `server`.
func allKeys(_ server: RedisTestServer) async throws -> [String] {
    guard case .array(let keys) = try await raw(server, ["KEYS", "*"]) else { return [] }
    return keys.compactMap(\.text).sorted()
}

let t0 = Date(timeIntervalSince1970: 1_795_856_400)
