-- wrk script: POST /v1/resolve with a typical profile (the JSON file named by
-- TARGETING_WRK_PROFILE), counting answers by status and by the rules version they name.
-- `done` prints one line per status ("status 200 N") and per version ("rules VERSION N").

local file = assert(io.open(os.getenv("TARGETING_WRK_PROFILE"), "r"))
local profile = file:read("*a")
file:close()

wrk.method = "POST"
wrk.path = "/v1/resolve"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"profile": ' .. profile .. '}'

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
  versions = {}
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  local version = body and string.match(body, '"rules":"(%x+)"')
  if version then
    versions[version] = (versions[version] or 0) + 1
  end
end

function done(summary, latency, requests)
  local status_totals, version_totals = {}, {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      status_totals[status] = (status_totals[status] or 0) + count
    end
    for version, count in pairs(thread:get("versions")) do
      version_totals[version] = (version_totals[version] or 0) + count
    end
  end
  for status, count in pairs(status_totals) do
    io.write(string.format("status %d %d\n", status, count))
  end
  for version, count in pairs(version_totals) do
    io.write(string.format("rules %s %d\n", version, count))
  end
end
