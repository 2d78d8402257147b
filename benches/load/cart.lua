-- Cart changes across many carts (benches/load/cart.sh). Each request picks one of
-- BENCH_CARTS carts (well-formed ids the server has never seen: the first change makes
-- the cart) and either adds a unit of the house blend or sets its quantity.
--
-- Environment: BENCH_CRUMB (a crumb from GET /), BENCH_CARTS (default 10000).

dofile(os.getenv("BENCH_DIR") .. "/common.lua")

local crumb = os.getenv("BENCH_CRUMB") or ""
local carts = tonumber(os.getenv("BENCH_CARTS") or "10000")
local n = 0

-- A 32-character cart id for cart number i (the shape of the server's own ids).
local function cart_id(i)
  return string.format("benchcart%023d", i)
end

function request()
  n = n + 1
  local cart = cart_id(math.random(1, carts))
  local headers = {
    ["Content-Type"] = "application/json",
    ["X-CSRF-Token"] = crumb,
    ["Cookie"] = "crumb=" .. crumb .. "; cart=" .. cart,
  }
  if n % 2 == 1 then
    return wrk.format("POST", "/api/commerce/cart/entries", headers, '{"sku":"VER-HB-12OZ","quantity":1}')
  end
  -- Setting a quantity of an entry the cart may not have yet answers 404: count only 2xx.
  local body = string.format('{"quantity":%d}', math.random(1, 5))
  return wrk.format("PUT", "/api/commerce/cart/entries/VER-HB-12OZ", headers, body)
end
