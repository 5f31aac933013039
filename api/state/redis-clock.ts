// Lua that sets `now` (milliseconds) from an argument, or from Redis's own clock when the argument is
// negative: scripts shared by several API hosts count time on one clock, and tests pass their own.
export const luaNowMs = (arg: string) => `
local now = tonumber(${arg})
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end`;
