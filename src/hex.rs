//! Lowercase hex of bytes: how digests show in cache keys and tokens.

/// `[0x0f, 0xa0]` → `"0fa0"`.
pub(crate) fn encode(bytes: impl AsRef<[u8]>) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let bytes = bytes.as_ref();
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn bytes_are_two_lowercase_digits_each() {
        assert_eq!(super::encode([0x0f, 0xa0, 0x00, 0xff]), "0fa000ff");
        assert_eq!(super::encode([]), "");
    }
}
