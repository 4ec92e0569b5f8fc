-- wrk script: POST /v1/resolve with one typical profile for one placement, on keep-alive
-- connections. `pace_ms` (set by serve.sh through the PACE_MS environment variable) makes each
-- connection wait that long between requests, to hold a rate below the maximum.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = io.open(os.getenv("BODY_FILE")):read("*a")

local pace = tonumber(os.getenv("PACE_MS") or "0")
function delay()
  return pace
end

-- With LIMIT set (and one wrk thread), stop after that many answers.
local limit = tonumber(os.getenv("LIMIT") or "0")
local answered = 0
if limit > 0 then
  function response()
    answered = answered + 1
    if answered >= limit then wrk.thread:stop() end
  end
end
