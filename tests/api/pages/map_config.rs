//! A map block's view config in the site file (001 §3 "Map view config: location and ui
//! {showControls, showTerrain, showLabels, style}") reaches the block data the page carries.

use veranda_tests::{spawn_app, text_with_status};

/// The `data-block-json` of the element with `id="block-<id>"`, parsed.
fn block_json(html: &str, id: &str) -> serde_json::Value {
    let at = html.find(&format!("id=\"block-{id}\"")).expect("the block is rendered");
    let tag = &html[at..at + html[at..].find('>').expect("the tag ends")];
    let start = tag.find("data-block-json=\"").expect("the block carries its data") + "data-block-json=\"".len();
    let end = tag[start..].find('"').expect("the attribute ends") + start;
    let text = tag[start..end].replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    serde_json::from_str(&text).expect("the block data is JSON")
}

#[actix_rt::test]
async fn the_contact_map_carries_the_location_and_ui_of_its_view_config() {
    let app = spawn_app().await;
    let html = text_with_status(app.get("/contact").await, 200).await;
    let data = block_json(&html, "376abb23787fb6bb544e37f2");
    assert_eq!(data["mapZoom"], 15, "zoom from location (the default is 12): {data}");
    assert_eq!(data["addressTitle"], "Veranda Café & Supply");
    assert_eq!(data["addressCountry"], "United States");
    assert_eq!(data["style"], "Grayscale");
    assert_eq!(data["showLabels"], true);
    assert_eq!(data["showControls"], true);
    assert_eq!(data["disableDefaultUI"], false, "off unless set");
    assert_eq!(data["markerDraggable"], false, "off unless set");
    assert_eq!(data["linkOnClick"], false, "off unless set");
    assert!(html.contains("12 Linden Street"), "the address from location is the fallback");
}
