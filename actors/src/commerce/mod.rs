//! Commerce: money, products' rules, carts, inventory and orders.
