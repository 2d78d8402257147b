-- GET one published page (BENCH_PATH, default "/") as a browser's first visit asks for it:
-- the same request against `veranda serve` and against nginx serving the same bytes.
dofile(os.getenv("BENCH_DIR") .. "/common.lua")

wrk.method = "GET"
local path = os.getenv("BENCH_PATH") or "/"
local headers = {
  ["Accept"] = "text/html,application/xhtml+xml",
  ["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
}

-- ENCODING=gzip (or br) in pages.sh: ask for the page compressed, as every browser does.
local encoding = os.getenv("BENCH_ENCODING")
if encoding and encoding ~= "" then
  headers["Accept-Encoding"] = encoding
end

function request()
  return wrk.format(nil, path, headers)
end
