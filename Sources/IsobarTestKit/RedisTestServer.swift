import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway `redis-server` for tests: its own free loopback port and temporary directory, nothing saved to disk, and
/// stopped on `stop()` or deinit. It can be paused (SIGSTOP), resumed, killed and restarted on the same port.
public final class RedisTestServer: Sendable {
    /// Why a server could not be started.
    public struct StartError: Error, CustomStringConvertible {
        /// One line for people.
        public let description: String
    }

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// Its working directory.
    public let directory: String
    private let executable: String
    private let password: String?
    private let process = Mutex<pid_t>(0)

    /// The `redis-server` binary, or nil when it is not installed (tests that need it are then skipped, loudly).
    public static var executable: String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin", "/usr/local/bin"]
        return directories.map { $0 + "/redis-server" }.first { access($0, X_OK) == 0 }
    }

    /// Starts a server (requiring `password` when given) and waits until it accepts connections.
    public init(password: String? = nil) throws(StartError) {
        guard let executable = Self.executable else { throw StartError(description: "redis-server is not installed") }
        var template = Array("/tmp/isobar-redis-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw StartError(description: "cannot make a temporary directory") }
        self.executable = executable
        self.password = password
        directory = String(cString: made)
        // A port found free may be taken before the server binds it (by another test's server): then another one is tried.
        var lastError = StartError(description: "no free port")
        for _ in 0..<5 {
            let candidate = try Self.freePort()
            do {
                let pid = try Self.launch(executable, port: candidate, password: password, directory: directory)
                port = candidate
                process.withLock { $0 = pid }
                return
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    deinit {
        stop()
        unlink(directory + "/redis.log")
        rmdir(directory)
    }

    /// `redis://127.0.0.1:PORT/0`, with the password when there is one.
    public var url: String { "redis://\(password.map { ":\($0)@" } ?? "")127.0.0.1:\(port)/0" }

    /// Starts it again after `stop()`, on the same port.
    public func start() throws(StartError) {
        let pid = try Self.launch(executable, port: port, password: password, directory: directory)
        process.withLock { $0 = pid }
    }

    /// Starts a server on `port` and returns its process id once its log says it is ready for connections.
    private static func launch(_ executable: String, port: Int, password: String?, directory: String) throws(StartError) -> pid_t {
        let log = directory + "/redis.log"
        unlink(log)
        var arguments = [executable, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                         "--dir", directory, "--logfile", log]
        if let password { arguments += ["--requirepass", password] }
        let pid = try spawn(arguments)
        for _ in 0..<200 {
            // The log is this server's own: a connection could reach another process that holds the port.
            if contents(log).contains("Ready to accept connections"), accepts(port) { return pid }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw StartError(description: "redis-server exited at start on port \(port); see \(log)")
            }
            usleep(25_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        throw StartError(description: "redis-server was not ready on port \(port) within 5 s")
    }

    /// Ends it (SIGKILL, as a crash would) and waits for it.
    public func stop() {
        process.withLock { pid in
            guard pid > 0 else { return }
            kill(pid, SIGCONT)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            pid = 0
        }
    }

    /// Freezes it (SIGSTOP): connections are accepted by the kernel but nothing is answered.
    public func pause() { signal(SIGSTOP) }

    /// Lets it run again (SIGCONT).
    public func resume() { signal(SIGCONT) }

    private func signal(_ number: Int32) {
        process.withLock { pid in if pid > 0 { kill(pid, number) } }
    }

    private static func spawn(_ arguments: [String]) throws(StartError) -> pid_t {
        var pid: pid_t = 0
        let copies = arguments.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var argv: [UnsafeMutablePointer<CChar>?] = copies + [nil]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let status = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard status == 0 else { throw StartError(description: "cannot start redis-server: error \(status)") }
        return pid
    }

    private static func contents(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            text += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return text
    }

    private static func freePort() throws(StartError) -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw StartError(description: "cannot open a socket") }
        defer { close(descriptor) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw StartError(description: "cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
