//! A client's address for per-address limits comes from the one header named by
//! `[security] client_ip_header`, read only from a trusted proxy and walked from the
//! right: a client cannot change the address it is counted under by sending
//! `Forwarded`, `X-Forwarded-For` or `X-Real-IP` itself.

use veranda_server::security::proxy::ClientIpHeader;
use veranda_tests::{crumb, form_key_status, form_key_statuses, spawn_app_behind, TestApp};

/// A server allowing two form keys a minute per address, trusting `trusted`.
async fn app(trusted: &[&str], header: ClientIpHeader) -> TestApp {
    spawn_app_behind(trusted, 2, |s| s.security.client_ip_header = header).await
}

#[actix_rt::test]
async fn a_client_talking_directly_cannot_change_its_address_with_any_forwarded_header() {
    let app = app(&[], ClientIpHeader::Forwarded).await;
    let crumb = crumb(&app).await;
    let statuses = [
        form_key_status(&app, &crumb, &[("forwarded", "for=198.51.100.1")]).await,
        form_key_status(&app, &crumb, &[("x-forwarded-for", "198.51.100.2")]).await,
        form_key_status(&app, &crumb, &[("x-real-ip", "198.51.100.3")]).await,
    ];
    assert_eq!(statuses, [200, 200, 429], "all three count against the peer's own address");
}

#[actix_rt::test]
async fn behind_a_proxy_setting_x_forwarded_for_a_passed_through_forwarded_header_is_ignored() {
    // nginx appends the client to X-Forwarded-For and passes the client's own
    // `Forwarded` through untouched.
    let app = app(&["127.0.0.1"], ClientIpHeader::XForwardedFor).await;
    let crumb = crumb(&app).await;
    let forged = ["for=198.51.100.1", "for=198.51.100.2", "for=198.51.100.3"];
    let statuses = form_key_statuses(&app, &crumb, "forwarded", &forged, &[("x-forwarded-for", "203.0.113.7")]).await;
    assert_eq!(statuses, [200, 200, 429], "one client, 203.0.113.7, three requests");
}

#[actix_rt::test]
async fn behind_a_trusted_proxy_the_right_most_untrusted_hop_is_the_client() {
    let app = app(&["127.0.0.1", "10.0.0.0/8"], ClientIpHeader::XForwardedFor).await;
    let crumb = crumb(&app).await;
    let hops = [
        "1.1.1.1, 203.0.113.7, 10.0.0.2",
        "2.2.2.2, 203.0.113.7, 10.0.0.3",
        "203.0.113.7",
        "3.3.3.3, 203.0.113.8, 10.0.0.2",
    ];
    let statuses = form_key_statuses(&app, &crumb, "x-forwarded-for", &hops, &[]).await;
    assert_eq!(statuses, [200, 200, 429, 200], "counted under 203.0.113.7, then 203.0.113.8");
}

#[actix_rt::test]
async fn with_forwarded_configured_x_forwarded_for_is_ignored() {
    let app = app(&["127.0.0.1"], ClientIpHeader::Forwarded).await;
    let crumb = crumb(&app).await;
    let forged = ["198.51.100.1", "198.51.100.2", "198.51.100.3"];
    let real = [("forwarded", "for=\"203.0.113.7:4711\"")];
    assert_eq!(form_key_statuses(&app, &crumb, "x-forwarded-for", &forged, &real).await, [200, 200, 429]);
}

#[actix_rt::test]
async fn with_x_real_ip_configured_the_proxy_s_single_address_is_used() {
    let app = app(&["127.0.0.1"], ClientIpHeader::XRealIp).await;
    let crumb = crumb(&app).await;
    let mut statuses = Vec::new();
    for (forged, real) in [("198.51.100.1", "203.0.113.7"), ("198.51.100.2", "203.0.113.7"), ("1.1.1.1", "203.0.113.9")]
    {
        let headers = [("x-forwarded-for", forged), ("forwarded", "for=6.6.6.6"), ("x-real-ip", real)];
        statuses.push(form_key_status(&app, &crumb, &headers).await);
    }
    assert_eq!(statuses, [200, 200, 200], "two requests from 203.0.113.7, one from 203.0.113.9");
    let again = form_key_status(&app, &crumb, &[("x-real-ip", "203.0.113.7"), ("forwarded", "for=7.7.7.7")]).await;
    assert_eq!(again, 429);
}
