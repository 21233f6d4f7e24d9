/// A Lua script run on the server, named by its SHA-1 for `EVALSHA`.
struct Script: Sendable {
    /// The Lua source.
    let source: String
    /// Its SHA-1, as Redis names it.
    let sha: String

    init(_ source: String) {
        self.source = source
        sha = SHA1.hex(source)
    }

    /// Lets a script that reads `TIME` write afterwards on servers older than 5.0 (from 7.0, `REDIS_VERSION_NUM` is set
    /// and effects replication is the only mode).
    private static let effects = "if redis.REDIS_VERSION_NUM == nil and redis.replicate_commands then redis.replicate_commands() end\n"

    /// GCRA over several windows at once, on the server's clock: every window must conform, and then all are committed.
    ///
    /// KEYS: one theoretical-arrival-time key per window. ARGV: the cost, then per window its emission interval, its burst
    /// and its limit (in calls); a call costing more than the burst may still go alone when the window is empty. Returns
    /// `{1, 0}` when granted, `{0, ms}` with the wait otherwise, `{0, -1}` when the cost exceeds a window's limit (it never fits).
    static let permit = Script(effects + """
    local time = redis.call('TIME')
    local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
    local cost = tonumber(ARGV[1])
    local wait = 0
    local next = {}
    for i, key in ipairs(KEYS) do
      local interval = tonumber(ARGV[3 * i - 1])
      local burst = tonumber(ARGV[3 * i])
      if cost > tonumber(ARGV[3 * i + 1]) then return {0, -1} end
      if cost > burst then burst = cost end
      local tat = tonumber(redis.call('GET', key) or '0')
      if tat < now then tat = now end
      local new = tat + interval * cost
      local early = new - burst * interval - now
      if early > wait then wait = early end
      next[i] = new
    end
    if wait > 0 then return {0, math.ceil(wait)} end
    for i, key in ipairs(KEYS) do
      redis.call('SET', key, string.format('%.3f', next[i]), 'PX', math.ceil(next[i] - now) + 1000)
    end
    return {1, 0}
    """)

    /// How many calls' worth each window holds now. KEYS: the windows' keys. ARGV: their emission intervals.
    /// Returns the counts as strings (Lua would truncate numbers).
    static let usage = Script("""
    local time = redis.call('TIME')
    local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
    local used = {}
    for i, key in ipairs(KEYS) do
      local tat = tonumber(redis.call('GET', key) or '0')
      local ahead = tat - now
      if ahead < 0 then ahead = 0 end
      used[i] = string.format('%.3f', ahead / tonumber(ARGV[i]))
    end
    return used
    """)

    /// Sets a cooldown or extends it, never shortening it. KEYS: the cooldown. ARGV: until (seconds since 1970), reason, TTL in ms.
    static let cooldown = Script("""
    local current = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
    local untilAt = ARGV[1]
    if current > tonumber(untilAt) then untilAt = string.format('%.3f', current) end
    redis.call('HSET', KEYS[1], 'until', untilAt, 'reason', ARGV[2])
    redis.call('PEXPIRE', KEYS[1], ARGV[3])
    return 1
    """)

    /// Records a breaker outcome. KEYS: the breaker. ARGV: 1 for a success, the threshold, now (seconds since 1970), TTL in ms.
    /// Returns `{failures, opened_at or ''}`.
    static let breaker = Script("""
    if ARGV[1] == '1' then
      redis.call('DEL', KEYS[1])
      return {0, ''}
    end
    local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
    if failures >= tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], 'opened_at', ARGV[3]) end
    redis.call('PEXPIRE', KEYS[1], ARGV[4])
    return {failures, redis.call('HGET', KEYS[1], 'opened_at') or ''}
    """)

    /// Extends a lease its owner still holds. KEYS: the lease. ARGV: the owner's token, milliseconds. Returns 1 or 0.
    static let renew = Script("""
    if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
    return 0
    """)

    /// Deletes a lease only when its owner still holds it. KEYS: the lease. ARGV: the owner's token. Returns 1 or 0.
    static let release = Script("""
    if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
    return 0
    """)
}
