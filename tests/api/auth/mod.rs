//! Accounts and access: signing in and out through the API and the login page, password
//! pages, crumbs bound to sessions, the owner redirect, and forwarded headers.

mod crumb_sessions;
mod login_page;
mod owner_redirect;
mod refusals;
mod sign_in;
mod trusted_proxies;
mod unlock;
