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
    /// First, calls granted elsewhere while the server was away (`owed`) are charged to every window; and a provider whose
    /// windows the server has never counted (its seeded mark is missing: a new server, or one restarted empty) has them
    /// seeded from the calls the local ledger counts in them (each window at least that many calls ahead, at most `cap` ms),
    /// or, when no such counts are given, the script asks for them. Both are kept even when the call must wait.
    ///
    /// KEYS: the provider's seeded mark, then one theoretical-arrival-time key per window. ARGV: the cost, the calls owed,
    /// `1` when local counts are given, then per window its emission interval, its burst, its limit (in calls), the local
    /// count and the cap; a call costing more than the burst may still go alone when the window is empty. Returns `{1, 0}`
    /// when granted, `{0, ms}` with the wait otherwise, `{0, -1}` when the cost exceeds a window's limit (it never fits),
    /// `{0, -2}` when the windows need seeding and no local counts were given.
    static let permit = Script(effects + """
    local time = redis.call('TIME')
    local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
    local cost = tonumber(ARGV[1])
    local owed = tonumber(ARGV[2])
    local seeding = redis.call('EXISTS', KEYS[1]) == 0
    if seeding and ARGV[3] ~= '1' then return {0, -2} end
    for i = 2, #KEYS do
      if cost > tonumber(ARGV[5 * i - 4]) then return {0, -1} end
    end
    local wait = 0
    local base = {}
    local next = {}
    for i = 2, #KEYS do
      local interval = tonumber(ARGV[5 * i - 6])
      local burst = tonumber(ARGV[5 * i - 5])
      if cost > burst then burst = cost end
      local tat = tonumber(redis.call('GET', KEYS[i]) or '0')
      if tat < now then tat = now end
      if seeding then
        local floor = now + math.min(tonumber(ARGV[5 * i - 3]) * interval, tonumber(ARGV[5 * i - 2]))
        if floor > tat then tat = floor end
      end
      tat = tat + owed * interval
      base[i] = tat
      local new = tat + interval * cost
      local early = new - burst * interval - now
      if early > wait then wait = early end
      next[i] = new
    end
    if seeding then redis.call('SET', KEYS[1], '1') end
    local kept = next
    if wait > 0 then kept = base end
    if wait <= 0 or seeding or owed > 0 then
      for i = 2, #KEYS do
        redis.call('SET', KEYS[i], string.format('%.3f', kept[i]), 'PX', math.ceil(kept[i] - now) + 1000)
      end
    end
    if wait > 0 then return {0, math.ceil(wait)} end
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

    /// Records a breaker outcome. KEYS: the breaker. ARGV: 1 for a success, the threshold, now (seconds since 1970), TTL in ms,
    /// what the failure said ('' for nothing). Returns `{failures, opened_at or '', last_failure or ''}`.
    static let breaker = Script("""
    if ARGV[1] == '1' then
      redis.call('DEL', KEYS[1])
      return {0, '', ''}
    end
    local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
    if failures >= tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], 'opened_at', ARGV[3]) end
    if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'last_failure', ARGV[5]) end
    redis.call('PEXPIRE', KEYS[1], ARGV[4])
    return {failures, redis.call('HGET', KEYS[1], 'opened_at') or '', redis.call('HGET', KEYS[1], 'last_failure') or ''}
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
