// A real host key for the pure tests: made with `ssh-keygen -t ed25519`; the fingerprint as `ssh-keygen -lf` prints
// it, the hashed name as `ssh-keygen -H` wrote it.
export const BLOB = Buffer.from("AAAAC3NzaC1lZDI1NTE5AAAAIFXMglGXEq35czHabY9U1WNfGaZYmhdhsY1fSi/JNLSL", "base64");
export const FINGERPRINT = "SHA256:+T6uHLQBkE/DbfZImeUdmenNQhtLPd/LcwnluiYubR8";
export const HASHED = "|1|09fl1jrHngErH6C3krVN7W0YPJQ=|CTcYqwX4ik7xBa76OX+kT+AqBv4="; // [10.0.0.5]:2222
/** The key as a known_hosts line has it after the host names. */
export const KEY_LINE = `ssh-ed25519 ${BLOB.toString("base64")}`;
