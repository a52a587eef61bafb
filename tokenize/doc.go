// Package tokenize counts the tokens of a text under a named tokenizer, so a token budget
// (a checkout's max_tokens) means what the caller's model will count: o200k_base and
// cl100k_base are OpenAI's byte-pair encodings, run offline from tables compiled into the
// binary; chars4 is the deterministic estimate ceil(characters/4).
//
// A Counter never fails and never panics: invalid UTF-8 is counted as its replacement
// characters, and a text the encoder cannot split is counted at one token per byte, which no
// byte-level BPE exceeds. It must never reach the network or the file system.
package tokenize
