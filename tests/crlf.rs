//! Windows GUIs end their lines with CRLF: every protocol answers a CRLF session exactly as the same
//! session with LF, and never writes a carriage return. Runs the binary `support::bin()` names, so the
//! Windows build runs it under Wine (`scripts/test-windows`).

mod support;

use support::run_to_end;

/// The output of `lines` sent with LF and with CRLF, for `args`.
fn both(args: &[&str], lines: &[&str]) -> (String, String) {
    let lf: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let crlf: String = lines.iter().map(|l| format!("{l}\r\n")).collect();
    let out = |input: &str| {
        let out = run_to_end(args, input);
        assert!(out.status.success(), "{args:?} on {input:?}: {out:?}");
        String::from_utf8(out.stdout).expect("UTF-8 output")
    };
    (out(&lf), out(&crlf))
}

/// `text` without the words that follow `time` and `nps` (and NBoard's `nodestats` figures): what
/// depends on the clock.
fn timeless(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut words = Vec::new();
        let mut skip = false;
        for word in line.split(' ') {
            words.push(if skip { "#" } else { word });
            skip = matches!(word, "time" | "nps") || (words.len() > 1 && words[0] == "nodestats");
        }
        out.push(words.join(" "));
    }
    out.join("\n")
}

fn check(args: &[&str], lines: &[&str], expect: &[&str]) {
    let (lf, crlf) = both(args, lines);
    assert_eq!(timeless(&lf), timeless(&crlf), "{args:?}: CRLF input answered otherwise");
    assert!(!crlf.contains('\r'), "{args:?}: a carriage return in {crlf:?}");
    for word in expect {
        assert!(crlf.contains(word), "{args:?}: no {word:?} in {crlf:?}");
    }
}

#[test]
fn native_protocol_takes_crlf() {
    let lines = ["new", "move f5", "go depth 4", "setboard bogus", "board", "quit"];
    check(&[], &lines, &["bestmove ", "error ", "board "]);
}

#[test]
fn nboard_takes_crlf() {
    let game = "set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[0]TY[8]BO[8 \
                ---------------------------O*------*O--------------------------- *]B[F5];)";
    let lines = ["nboard 2", "set depth 4", game, "ping 1", "go", "hint 2", "ping 2"];
    check(&["--protocol", "nboard"], &lines, &["set myname ebony", "pong 1", "=== ", "pong 2"]);
}

#[test]
fn gtp_takes_crlf() {
    // What Quarry sends first (its log in tests/data), then a move and a reply.
    let lines = [
        "protocol_version",
        "name",
        "list_commands",
        "boardsize 8",
        "clear_board",
        "time_settings 0 5 1",
        "play black F5",
        "time_left white 5 1",
        // A fixed depth, so that both runs choose alike whatever the machine's load.
        "ebony-limit depth 4",
        "genmove white",
        "quit",
    ];
    check(&["--protocol", "gtp"], &lines, &["= 2\n", "= ebony\n", "=\n\n= D6\n"]);
}
