//! The critical stylesheet inlined in every page: mobile first, system fonts, readable
//! contrast, visible focus, and no motion when the visitor asks for less. Islands and the
//! loader's own stylesheet refine it; pages are complete with this alone.

/// The design tokens (000 §9, 001 §9: "radii 0/4/8, font sizes 9.75 to 28, weights 400/500/600,
/// time steps 0 to 600 ms"), as custom properties every published page and the dashboard inline
/// before their own styles. The sizes between the spec's two ends are the ones Veranda's pages use;
/// font sizes are in rem so a visitor's own text size still scales them (`docs/pages.md`).
pub const TOKENS: &str = ":root{--radius-0:0;--radius-1:4px;--radius-2:8px;--font-size-1:.609375rem;--font-size-2:.875rem;--font-size-3:1rem;--font-size-4:1.125rem;--font-size-5:1.375rem;--font-size-6:1.5rem;--font-size-7:1.75rem;--font-weight-1:400;--font-weight-2:500;--font-weight-3:600;--time-0:0ms;--time-1:100ms;--time-2:200ms;--time-3:300ms;--time-4:400ms;--time-5:500ms;--time-6:600ms}";

/// Inline CSS (kept well under 8 KB).
pub const CRITICAL_CSS: &str = r#":root{--fg:#1a1a1a;--muted:#4a4a4a;--bg:#fff;--accent:#0b57d0;--line:#d0d0d0;--soft:#f4f4f2;color-scheme:light}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:var(--font-size-3)/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
img,video,iframe{max-width:100%;height:auto}
iframe{border:0;width:100%;aspect-ratio:16/9}
a{color:var(--accent)}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
h1,h2,h3{line-height:1.25;font-weight:var(--font-weight-3)}
h1{font-size:var(--font-size-7)}
.skip-link{position:absolute;left:.5rem;top:-3rem;background:var(--fg);color:#fff;padding:.5rem 1rem;z-index:10}
.skip-link:focus{top:.5rem}
.visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.announcement-bar{background:var(--fg);color:#fff;text-align:center;padding:.5rem 1rem}
.announcement-bar a{color:#fff}
.announcement-bar{display:flex;align-items:center;justify-content:center;gap:1rem}
.announcement-bar p{margin:0}
.announcement-bar[hidden]{display:none}
.announcement-bar-close{background:none;border:1px solid #fff;color:#fff;font:inherit;line-height:1;min-width:2.75rem;min-height:2.75rem;border-radius:var(--radius-1);cursor:pointer}
.mobile-info-bar{display:none}
@media (max-width:1024px){.mobile-info-bar{display:block;position:sticky;bottom:0;z-index:5;background:var(--fg);color:#fff;padding:.5rem 1rem}.mobile-info-bar ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem;justify-content:center}.mobile-info-bar a{color:#fff}}
.site-header,.site-footer{padding:1rem;border-bottom:1px solid var(--line)}
.site-footer{border-top:1px solid var(--line);border-bottom:0;margin-top:3rem;color:var(--muted)}
.site-title{font-size:var(--font-size-5);font-weight:var(--font-weight-3);color:var(--fg);text-decoration:none}
.site-header p{margin:.25rem 0 0;color:var(--muted)}
nav ul{list-style:none;margin:.5rem 0 0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
nav a{display:inline-block;padding:.5rem 0}
nav a[aria-current=page]{font-weight:var(--font-weight-3);color:var(--fg)}
main{display:block;max-width:60rem;margin:0 auto;padding:1rem}
main:focus{outline:0}
.block{margin:0 0 2rem}
.meta,.muted,.field-desc{color:var(--muted)}
.button,button{display:inline-block;font:inherit;padding:.625rem 1.25rem;border:2px solid var(--accent);border-radius:var(--radius-1);background:var(--accent);color:#fff;text-decoration:none;cursor:pointer}
button[disabled]{opacity:.6;cursor:not-allowed}
.button--small{padding:.375rem .875rem;font-size:var(--font-size-2)}.button--large{padding:.875rem 1.75rem;font-size:var(--font-size-4)}
.align-left{text-align:left}.align-center{text-align:center}.align-right{text-align:right}
label,legend{display:block;font-weight:var(--font-weight-3);margin:.75rem 0 .25rem}
fieldset{border:1px solid var(--line);padding:.5rem 1rem 1rem;margin:1rem 0}
fieldset label{font-weight:var(--font-weight-1)}
.choice{display:flex;gap:.5rem;align-items:center}.choice label{margin:0}
input:not([type=radio]):not([type=checkbox]),select,textarea{font:inherit;width:100%;max-width:32rem;padding:.5rem;border:1px solid #767676;border-radius:var(--radius-1);background:#fff;color:var(--fg)}
.parts{display:grid;gap:0 1rem;grid-template-columns:repeat(auto-fit,minmax(8rem,1fr))}
.required{color:#a4000f;font-weight:var(--font-weight-1);font-size:var(--font-size-2)}
.form-errors,.field-error{color:#a4000f}
table{border-collapse:collapse;width:100%;overflow-x:auto}
caption{font-weight:var(--font-weight-3);text-align:left;padding:.5rem 0}
th,td{border:1px solid var(--line);padding:.375rem .5rem;text-align:left}
.likert td{text-align:center}
.items{list-style:none;padding:0;display:grid;gap:1.5rem}
.items--grid,.gallery{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));list-style:none;padding:0}
.items img,.gallery img{display:block;width:100%;object-fit:cover}
.gallery--grid{grid-template-columns:repeat(var(--narrow-per-row,2),minmax(0,1fr))}@media (min-width:767px){.gallery--grid{grid-template-columns:repeat(var(--per-row,4),minmax(0,1fr))}}
figure{margin:0}
.block--image{container-type:inline-size}@container (width < 415px){.block--image figure{text-align:center}.block--image img{width:100%}}
figcaption{color:var(--muted);font-size:var(--font-size-2);padding-top:.25rem}
.shape{display:inline-block;position:relative;width:100%;max-width:32rem;vertical-align:top}.shape img{position:absolute;inset:0;width:100%;height:100%;object-fit:cover}
.shape--100{aspect-ratio:100/100}.shape--150{aspect-ratio:100/150}.shape--67{aspect-ratio:100/67}
.shape-circle img,.shape-tall-oval img,.shape-wide-oval img{clip-path:ellipse(50% 50%)}.shape-rounded img{clip-path:inset(0 round 12%)}.shape-wide-rounded img{clip-path:inset(0 round 8%/12%)}
.shape-diamond img{clip-path:polygon(50% 0,100% 50%,50% 100%,0 50%)}.shape-hexagon img{clip-path:polygon(25% 0,75% 0,100% 50%,75% 100%,25% 100%,0 50%)}.shape-tall-arch img{clip-path:inset(0 round 50% 50% 0 0/33% 33% 0 0)}
.gallery-overlay{position:relative}
.gallery-meta{position:absolute;box-sizing:border-box;max-width:calc(100% - 1rem);max-height:calc(100% - 1rem);overflow-y:auto;margin:0;padding:.5rem .75rem;background:rgba(0,0,0,.8);color:#fff;border-radius:var(--radius-1)}
.gallery-meta--top,.gallery-meta--top-left,.gallery-meta--top-right{top:.5rem}.gallery-meta--bottom,.gallery-meta--bottom-left,.gallery-meta--bottom-right{bottom:.5rem}
.gallery-meta--top,.gallery-meta--bottom{left:.5rem;right:.5rem}.gallery-meta--top-left,.gallery-meta--bottom-left{left:.5rem;max-width:60%}.gallery-meta--top-right,.gallery-meta--bottom-right{right:.5rem;max-width:60%}
.gallery-meta--center{top:50%;left:.5rem;right:.5rem;transform:translateY(-50%);text-align:center}.gallery-meta--overflow{height:40%}
.gallery-meta:focus-visible{outline:3px solid #fff;outline-offset:-3px}
details{border-bottom:1px solid var(--line);padding:.5rem 0}
summary{cursor:pointer;font-weight:var(--font-weight-3);padding:.25rem 0}
.marquee{font-size:var(--font-size-6);overflow-wrap:anywhere}
.block--scaled-text{container-type:inline-size}.scaled-text[style]{white-space:nowrap;font-size:max(11px,min(var(--scaled-max,1em),calc(100cqi / (var(--chars) * .6))))}
h1.scaled-text{--scaled-max:var(--font-size-7)}h2.scaled-text{--scaled-max:var(--font-size-6)}h3.scaled-text{--scaled-max:var(--font-size-4)}
.price s{color:var(--muted)}
.sold-out{display:inline-block;background:var(--fg);color:#fff;padding:0 .5rem;font-size:var(--font-size-2)}
.notice{background:var(--soft);padding:1rem;border-left:4px solid var(--accent)}
dialog{border:1px solid var(--line);border-radius:var(--radius-2);max-width:28rem;padding:1.5rem;position:fixed;inset:0;margin:auto;z-index:20;box-shadow:0 .5rem 2rem rgba(0,0,0,.25)}
@media (min-width:48rem){.site-header{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:1rem}main{padding:2rem}}
@media (prefers-reduced-motion:reduce){*,*::before,*::after{animation:none!important;transition:none!important;scroll-behavior:auto!important}}
"#;

#[cfg(test)]
mod tests {
    #[test]
    fn the_critical_stylesheet_stays_small() {
        assert!(super::CRITICAL_CSS.len() < 8 * 1024, "{} bytes", super::CRITICAL_CSS.len());
        assert!(super::CRITICAL_CSS.contains("prefers-reduced-motion"));
        assert!(super::CRITICAL_CSS.contains(":focus-visible"));
    }

    /// The spec's value of one constant of `tests/spec/constants.json`.
    fn spec(key: &str) -> serde_json::Value {
        let all: serde_json::Value =
            serde_json::from_str(include_str!("../../../tests/spec/constants.json")).expect("constants.json is JSON");
        all["constants"][key]["value"].clone()
    }

    /// The values of the tokens named `--{family}-N`, in CSS pixels (a rem is 16 px by default).
    fn tokens(family: &str) -> Vec<f64> {
        let body = super::TOKENS.trim_start_matches(":root{").trim_end_matches('}');
        body.split(';')
            .filter_map(|decl| decl.strip_prefix(&format!("--{family}-")))
            .map(|decl| {
                let value = decl.split_once(':').expect("a declaration").1;
                let number = |unit: &str| value.strip_suffix(unit).map(|n| n.parse::<f64>().expect("a number"));
                number("rem")
                    .map(|rem| rem * 16.0)
                    .or_else(|| number("px"))
                    .or_else(|| number("ms"))
                    .unwrap_or_else(|| value.parse().expect("a number"))
            })
            .collect()
    }

    #[test]
    fn the_design_tokens_take_the_spec_values() {
        // 000 §9, 001 §9: "radii 0/4/8, font sizes 9.75 to 28, weights 400/500/600, time steps 0 to 600 ms".
        let as_numbers = |key: &str| -> Vec<f64> {
            spec(key).as_array().expect("a list").iter().map(|v| v.as_f64().expect("a number")).collect()
        };
        assert_eq!(tokens("radius"), as_numbers("tokens.radii"));
        assert_eq!(tokens("font-weight"), as_numbers("tokens.weights"));
        let sizes = tokens("font-size");
        assert_eq!(sizes.first().copied(), spec("tokens.fontSizeMin").as_f64());
        assert_eq!(sizes.last().copied(), spec("tokens.fontSizeMax").as_f64());
        assert!(sizes.windows(2).all(|w| w[0] < w[1]), "font sizes rise: {sizes:?}");
        let times = tokens("time");
        assert_eq!(times.first().copied(), Some(0.0));
        assert_eq!(times.last().copied(), spec("tokens.timeStepMaxMs").as_f64());
        assert!(times.windows(2).all(|w| w[0] < w[1]), "time steps rise: {times:?}");
    }

    #[test]
    fn the_critical_stylesheet_takes_its_radii_sizes_and_weights_from_the_tokens() {
        for property in ["border-radius:", "font-size:", "font-weight:"] {
            for (at, _) in super::CRITICAL_CSS.match_indices(property) {
                let value = &super::CRITICAL_CSS[at + property.len()..];
                let value = &value[..value.find([';', '}']).unwrap_or(value.len())];
                // Scaled text's size is the smaller of its token and what fits its block.
                let fitted = value.starts_with("max(11px,min(var(--scaled-max");
                assert!(value.starts_with("var(--") || fitted, "{property}{value}");
            }
        }
    }

    #[test]
    fn shaped_images_take_the_spec_mask_heights() {
        // Spec 000 §9: "Shape mask aspect heights: 100 for most shapes, 150 for tall, 67 for wide."
        for height in [100, 150, 67] {
            let rule = format!(".shape--{height}{{aspect-ratio:100/{height}}}");
            assert!(super::CRITICAL_CSS.contains(&rule), "{rule}");
        }
        for (name, _) in veranda_actors::site::blocks::IMAGE_SHAPES.iter().filter(|(n, _)| *n != "square") {
            assert!(super::CRITICAL_CSS.contains(&format!(".shape-{name} img")), "{name} has a clip path");
        }
        assert!(!super::CRITICAL_CSS.contains(".shape-square img"), "a square needs no clip");
    }

    #[test]
    fn scaled_text_is_sized_to_one_line_of_its_block_before_it_is_measured() {
        // 001 §9: scaled text shrinks to fit, never below 11 px; about 0.6 em a character.
        let css = super::CRITICAL_CSS;
        assert!(css.contains(".block--scaled-text{container-type:inline-size}"));
        assert!(css.contains(
            ".scaled-text[style]{white-space:nowrap;font-size:max(11px,min(var(--scaled-max,1em),calc(100cqi / (var(--chars) * .6))))}"
        ));
        assert!(css.contains("h1.scaled-text{--scaled-max:var(--font-size-7)}"));
    }

    #[test]
    fn an_image_block_is_narrow_under_415_px() {
        // Spec 000 §9, 001 §9: "narrow image block under 415 px".
        assert!(super::CRITICAL_CSS.contains("@container (width < 415px){.block--image figure{text-align:center}"));
    }
}
