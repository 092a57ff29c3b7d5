//! Decoding a client frame never panics, whatever the bytes; what decodes re-encodes to a frame
//! that decodes to the same message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skirmish_protocol::{MAX_FRAME_BYTES, MAX_JSON_DEPTH, parse_client_frame_within};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(frame) = parse_client_frame_within(text, MAX_FRAME_BYTES, MAX_JSON_DEPTH) {
        let again = serde_json::to_string(&frame).expect("a decoded frame encodes");
        let back =
            parse_client_frame_within(&again, usize::MAX, usize::MAX).expect("an encoded frame decodes");
        assert_eq!(back, frame);
    }
});
