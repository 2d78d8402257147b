//! Commerce blocks: product, cart, donation button and member area; and the product
//! details of a store item page. Buttons that need the cart stay disabled until the
//! island takes over.

use maud::{html, Markup, PreEscaped};
use serde::Serialize;
use veranda_actors::commerce::money::{Currency, Money};
use veranda_actors::commerce::product::{self, unit_price as effective};
use veranda_actors::commerce::rules::MAX_ENTRY_QUANTITY;
use veranda_actors::commerce::subscription::{installment_text, renewal_text};
use veranda_actors::domain::enums::ProductType;
use veranda_actors::domain::islands::IslandKind;
use veranda_actors::site::blocks::{CartBlock, DonationButtonBlock, MemberAreaBlock, ProductBlock};
use veranda_actors::site::content::{OptionValue, SubscriptionPlan, Variant};
use veranda_actors::site::{Collection, Item, Product};

use super::BlockCtx;
use crate::render::money::format_money;
use crate::render::util::image_url;

/// Whether every variant is out of stock (limited with none left); never for digital goods.
pub fn sold_out(product: &Product) -> bool {
    product::sold_out(product)
}

/// The product's price: one price, a sale price beside the struck original, or "from"
/// the lowest; with a sold-out label when nothing is left.
pub fn product_price(ctx: &BlockCtx<'_>, product: &Product) -> Markup {
    html! {
        (price(ctx, product))
        @if sold_out(product) { p { span class="sold-out" { "Sold out" } } }
    }
}

fn price(ctx: &BlockCtx<'_>, product: &Product) -> Markup {
    let Some(cheapest) = product.variants.iter().min_by_key(|v| effective(v)) else { return html! {} };
    let varies = product.variants.iter().any(|v| effective(v) != effective(cheapest));
    let money = |cents| format_money(cents, ctx.currency());
    html! {
        p class="price" {
            @if varies { "from " }
            @if cheapest.on_sale && cheapest.sale_price < cheapest.price {
                s { span class="visually-hidden" { "Regular price " } (money(cheapest.price)) } " "
                span class="visually-hidden" { "Sale price " } (money(cheapest.sale_price))
            } @else {
                (money(effective(cheapest)))
            }
        }
    }
}

/// What the add-to-cart island needs: the item, the store currency, the largest
/// quantity the cart takes and every variant with its price and availability.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AddToCartData<'a> {
    item_id: &'a str,
    title: &'a str,
    currency: &'a str,
    max_quantity: u32,
    variants: Vec<VariantData<'a>>,
}

/// One variant as the add-to-cart island reads it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct VariantData<'a> {
    sku: &'a str,
    /// The price before any sale, in minor units.
    price_cents: u64,
    /// The price the cart charges (the sale price while on sale), in minor units.
    unit_price_cents: u64,
    on_sale: bool,
    /// Whether units can be added (stock left, unlimited, or not counted).
    available: bool,
    option_values: &'a [OptionValue],
}

fn add_to_cart_data<'a>(ctx: &'a BlockCtx<'_>, product: &'a Product, item: &'a Item) -> AddToCartData<'a> {
    let variants = product
        .variants
        .iter()
        .map(|v| VariantData {
            sku: &v.sku,
            price_cents: v.price,
            unit_price_cents: effective(v),
            on_sale: v.on_sale && v.sale_price < v.price,
            available: !product::tracks_stock(product.product_type, v) || v.qty_in_stock > 0,
            option_values: &v.option_values,
        })
        .collect();
    AddToCartData {
        item_id: &item.id,
        title: &item.title,
        currency: ctx.currency(),
        max_quantity: MAX_ENTRY_QUANTITY,
        variants,
    }
}

/// Where the add-to-cart form posts without JavaScript (`routes::commerce::plain`).
const PLAIN_ADD: &str = "/commerce/cart/add";
/// The cart page that works without JavaScript.
const PLAIN_CART: &str = "/commerce/cart";

/// The add-to-cart control: the `add-to-cart` island's root, with the product's data.
/// Without JavaScript it is a plain form posting to [`PLAIN_ADD`] (variant, quantity
/// and this page to come back to); the island removes the plain fields (marked
/// `add-to-cart__plain`) and adds through the cart API instead. When nothing can be
/// added (sold out, not sold through the cart) there is no form and the button is
/// disabled.
fn add_to_cart(ctx: &BlockCtx<'_>, product: &Product, item: &Item) -> Markup {
    let out = sold_out(product);
    let json = serde_json::to_string(&add_to_cart_data(ctx, product, item)).unwrap_or_else(|_| "{}".to_string());
    let island = product::sold_in_cart(product.product_type) && !product.variants.is_empty();
    let field_id = |name: &str| format!("plain-{name}-{}", item.id);
    let available = |v: &Variant| !product::tracks_stock(product.product_type, v) || v.qty_in_stock > 0;
    let plain = island && !out;
    let button = html! {
        p {
            button type=(if plain { "submit" } else { "button" }) class="add-to-cart" data-item-id=(item.id) disabled[!plain] {
                @if out { "Sold Out" } @else { "Add to Cart" }
            }
        }
    };
    html! {
        div class="add-to-cart-form" data-island=[island.then_some(IslandKind::AddToCart.name())] data-block-json=[island.then_some(json)] {
            @if out { p { span class="sold-out" { "Sold out" } } }
            @if plain {
                form method="post" action=(PLAIN_ADD) {
                    div class="add-to-cart__plain" {
                        input type="hidden" name="returnTo" value=(ctx.page_path);
                        @if let [only] = product.variants.as_slice() {
                            input type="hidden" name="sku" value=(only.sku);
                        } @else {
                            label for=(field_id("sku")) { "Option" }
                            select id=(field_id("sku")) name="sku" {
                                @for v in &product.variants {
                                    option value=(v.sku) disabled[!available(v)] {
                                        @if v.option_values.is_empty() { (v.sku) } @else { (options_text(v)) }
                                        " — " (format_money(effective(v), ctx.currency()))
                                        @if !available(v) { " (sold out)" }
                                    }
                                }
                            }
                        }
                        label for=(field_id("quantity")) { "Quantity" }
                        input id=(field_id("quantity")) name="quantity" type="number" min="1" max=(MAX_ENTRY_QUANTITY) value="1" inputmode="numeric";
                    }
                    (button)
                }
                p class="add-to-cart__plain" { a href=(PLAIN_CART) { "View your cart" } }
            } @else {
                (button)
            }
        }
    }
}

/// What the quick view island needs: the product's page, images, excerpt and the
/// add-to-cart data.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct QuickViewData<'a> {
    url: String,
    images: Vec<String>,
    excerpt: &'a str,
    product: AddToCartData<'a>,
}

/// The `data-block-json` of a product card's quick view, when the product can be added
/// to the cart (the card is then the `quick-view` island's root).
pub fn quick_view_json(ctx: &BlockCtx<'_>, collection: &Collection, item: &Item) -> Option<String> {
    let product = item.product.as_ref()?;
    if !product::sold_in_cart(product.product_type) || product.variants.is_empty() {
        return None;
    }
    let data = QuickViewData {
        url: collection.item_url(item),
        images: item.image.iter().map(|i| image_url(i)).collect(),
        excerpt: &item.excerpt,
        product: add_to_cart_data(ctx, product, item),
    };
    serde_json::to_string(&data).ok()
}

/// The `collection/urlId` a product block names.
fn find_product<'a>(ctx: &BlockCtx<'a>, reference: &str) -> Option<(&'a Collection, &'a Item, &'a Product)> {
    let (collection, item) = ctx.site.product(reference)?;
    Some((collection, item, item.product.as_ref()?))
}

/// A product card: image, name, price, sold-out label and the add-to-cart button.
pub fn product(ctx: &BlockCtx<'_>, d: &ProductBlock) -> Markup {
    let Some((collection, item, product)) = find_product(ctx, &d.product) else {
        return html! { p class="muted" { "This product is not available." } };
    };
    let href = collection.item_url(item);
    html! {
        article class="product-card" {
            @if let Some(image) = &item.image {
                a href=(href) tabindex="-1" aria-hidden="true" { img src=(image_url(image)) alt="" loading="lazy"; }
            }
            h2 { a href=(href) { (item.title) } }
            (price(ctx, product))
            (add_to_cart(ctx, product, item))
        }
    }
}

/// What a subscription product costs under its plan, from its lowest price (e.g. `4 payments
/// of $25.00, every 2 weeks ($100.00 in all)`); "From …" when the variants' prices differ.
fn plan_price(ctx: &BlockCtx<'_>, product: &Product, plan: &SubscriptionPlan) -> Option<String> {
    let cheapest = product.variants.iter().map(effective).min()?;
    let varies = product.variants.iter().any(|v| effective(v) != cheapest);
    let payment = Money::new(Currency::parse(ctx.currency())?, i64::try_from(cheapest).ok()?).ok()?;
    let text = installment_text(plan, payment);
    Some(if varies { format!("From {text}") } else { text })
}

fn options_text(v: &Variant) -> String {
    v.option_values.iter().map(|o| format!("{}: {}", o.option_name, o.value)).collect::<Vec<_>>().join(", ")
}

/// Price, variants with their availability, subscription terms and the add-to-cart button.
pub fn product_details(ctx: &BlockCtx<'_>, item: &Item, product: &Product) -> Markup {
    let money = |cents| format_money(cents, ctx.currency());
    let ships = product.product_type != ProductType::Digital;
    html! {
        section class="product-details" aria-label="Product details" {
            (price(ctx, product))
            @if let Some(plan) = &product.subscription {
                @if let Some(text) = plan_price(ctx, product, plan) { p class="plan-price" { (text) } }
                p class="renewal" { (renewal_text(plan)) }
            }
            @if product.variants.len() > 1 || product.variants.iter().any(|v| !v.option_values.is_empty()) {
                table class="variants" {
                    caption { "Options" }
                    thead { tr { th scope="col" { "Option" } th scope="col" { "Price" } th scope="col" { "Availability" } } }
                    tbody {
                        @for v in &product.variants {
                            tr {
                                th scope="row" { @if v.option_values.is_empty() { (v.sku) } @else { (options_text(v)) } }
                                td { (money(effective(v))) }
                                td {
                                    @if !ships || v.unlimited { "In stock" }
                                    @else if v.qty_in_stock == 0 { "Sold out" }
                                    @else { (v.qty_in_stock) " in stock" }
                                }
                            }
                        }
                    }
                }
            }
            (measures(ctx, product))
            (add_to_cart(ctx, product, item))
        }
    }
}

/// A number as an owner wrote it: no trailing zeros, at most two decimals.
fn measure(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A shipped product's weight and dimensions, in the store's units (spec 000 §9: lbs and
/// inches if imperial, else kg and cm).
fn measures(ctx: &BlockCtx<'_>, p: &Product) -> Markup {
    let system = ctx.site.settings.store.measurement_system;
    html! {
        @if product::ships(p.product_type) && (p.weight.is_some() || p.dimensions.is_some()) {
            dl class="product-measures" {
                @if let Some(weight) = p.weight {
                    dt { "Weight" } dd { (measure(weight)) " " (product::weight_unit(system)) }
                }
                @if let Some(d) = p.dimensions {
                    dt { "Dimensions" }
                    dd { (measure(d.length)) " × " (measure(d.width)) " × " (measure(d.height)) " " (product::dimension_unit(system)) }
                }
            }
        }
    }
}

/// Marks the start of the cart root's content, which `GET /cart`
/// (`routes::commerce::cart_root`) replaces with the visitor's cart.
const CART_ROOT_START: &str = "<!--cart-root-->";
/// Marks its end.
const CART_ROOT_END: &str = "<!--/cart-root-->";

/// The cart root the cart island mounts in. The page renders the same for everyone with
/// a way on to the plain cart page between the cart root's markers; `GET /cart` puts the
/// visitor's cart there instead, and the island replaces it when JavaScript runs.
pub fn cart(d: &CartBlock) -> Markup {
    html! {
        @if d.variant == "badge" {
            div class="cart-badge" { a href="/cart" { "Cart" } }
        } @else {
            div id="cart-root" {
                (PreEscaped(CART_ROOT_START))
                p { a href=(PLAIN_CART) { "View and change your cart" } }
                p { a href="/shop" { "Continue shopping" } }
                (PreEscaped(CART_ROOT_END))
            }
        }
    }
}

/// The donation button, with the suggested amounts: a real button in a GET form to the
/// donation checkout (`/checkout/donate?donatePageId=…`), so it activates on Enter or Space
/// (spec 000 §10) with or without scripts.
pub fn donation_button(ctx: &BlockCtx<'_>, d: &DonationButtonBlock) -> Markup {
    let amounts: Vec<String> = d.suggested_amounts_cents.iter().map(|c| format_money(*c, ctx.currency())).collect();
    html! {
        @if !amounts.is_empty() { p class="muted" { "Suggested amounts: " (amounts.join(", ")) } }
        form class="donation-button" method="get" action="/checkout/donate" {
            input type="hidden" name="donatePageId" value=(d.donate_page_id);
            button type="submit" class="button" { (d.button_text) }
        }
    }
}

fn per_period(period: &str) -> &str {
    match period {
        "weekly" => "week",
        "monthly" => "month",
        "yearly" => "year",
        other => other,
    }
}

/// Where a member area's join buttons go (`routes::commerce::join`).
pub const JOIN_ACTION: &str = "/checkout/join";

/// The member area's title, description and both pricing options. Each join button is a
/// submit button of one GET form to the membership checkout, naming its option
/// (`pricingOption`), so joining works with or without scripts.
pub fn member_area(ctx: &BlockCtx<'_>, block_id: &str, d: &MemberAreaBlock) -> Markup {
    html! {
        h2 { (d.title) }
        @if !d.description.trim().is_empty() { p { (d.description) } }
        form class="member-join" method="get" action=(JOIN_ACTION) {
            input type="hidden" name="memberAreaId" value=(block_id);
            ul class="pricing" {
                @for (index, option) in d.pricing_options.iter().enumerate() {
                    li {
                        strong { (option.label) } ": "
                        (format_money(option.price_cents, ctx.currency())) " per " (per_period(&option.billing_period))
                        " " button type="submit" class="button" name="pricingOption" value=(index) { (option.join_text) }
                    }
                }
            }
        }
    }
}
