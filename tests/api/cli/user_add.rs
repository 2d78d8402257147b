//! `veranda user add`: the account lands in the store with an argon2id hash; duplicates,
//! empty passwords, unknown roles and a locked data directory are refused with exit 2.

use std::path::Path;
use std::process::{Command, Output};

use veranda_actors::accounts::{find_by_email, Email};
use veranda_actors::domain::enums::ContributorRole;
use veranda_actors::store::SledStore;
use veranda_tests::process::{output_with_stdin, veranda_binary};

fn user_add(data_dir: &Path, email: &str, roles: &[&str], stdin: &str) -> Output {
    let mut command = Command::new(veranda_binary());
    command.args(["user", "add", "--email", email]).arg("--data-dir").arg(data_dir);
    for role in roles {
        command.args(["--role", role]);
    }
    command.current_dir(data_dir.parent().expect("the data dir has a parent"));
    output_with_stdin(&mut command, stdin)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

#[test]
fn an_account_is_created_with_its_roles_and_a_hashed_password() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let output = user_add(&data, "Ann@Example.com", &["owner", "store-manager"], "porch swing\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));

    let store = SledStore::open(&data).expect("the store opens once the command has exited");
    let email = Email::parse("ann@example.com").expect("valid");
    let account = find_by_email(&store, &email).expect("reads").expect("the account exists");
    assert!(account.owner && !account.member);
    assert_eq!(account.roles, vec![ContributorRole::StoreManager]);
    assert_eq!(account.id.as_str().len(), 24);
    assert!(account.password_hash.as_str().starts_with("$argon2id$"));
    assert!(account.password_hash.verify("porch swing"), "the line end is not part of the password");
    assert!(!account.password_hash.verify("porch swing\n"));
}

#[test]
fn a_duplicate_email_an_empty_password_and_an_unknown_role_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    assert_eq!(user_add(&data, "ann@example.com", &["member"], "first\n").status.code(), Some(0));

    let duplicate = user_add(&data, "ANN@example.com", &["admin"], "second\n");
    assert_eq!(duplicate.status.code(), Some(2));
    assert!(stderr(&duplicate).contains("already exists"), "{}", stderr(&duplicate));

    let empty = user_add(&data, "bob@example.com", &["member"], "\n");
    assert_eq!(empty.status.code(), Some(2));
    assert!(stderr(&empty).contains("empty"), "{}", stderr(&empty));

    let role = user_add(&data, "bob@example.com", &["wizard"], "secret\n");
    assert_eq!(role.status.code(), Some(2));
    assert!(stderr(&role).contains("wizard"), "{}", stderr(&role));

    let store = SledStore::open(&data).expect("opens");
    let ann = find_by_email(&store, &Email::parse("ann@example.com").expect("valid")).expect("reads").expect("kept");
    assert!(ann.member && ann.password_hash.verify("first"), "the first account is untouched");
    assert!(find_by_email(&store, &Email::parse("bob@example.com").expect("valid")).expect("reads").is_none());
}

#[test]
fn a_data_dir_held_by_a_running_server_is_refused_clearly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let _held = SledStore::open(&data).expect("this process holds the store");
    let output = user_add(&data, "ann@example.com", &["owner"], "secret\n");
    assert_eq!(output.status.code(), Some(2));
    let text = stderr(&output);
    assert!(text.contains("in use") && text.contains("stop the server"), "{text}");
}
