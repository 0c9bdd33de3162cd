// Secret masking (secrets.ts): whole tokens only, registered and per-call secrets.
import { maskSecrets, registerSecret } from "../../../provider/remote/secrets";

describe("secret masking", () => {
  test("masks every occurrence of each secret", () => {
    expect(maskSecrets("pw=abc abcdef abc", ["abc", "abcdef"])).toBe("pw=[secret] [secret] [secret]");
    expect(maskSecrets("nothing", ["", "zzz"])).toBe("nothing");
  });

  test("only whole tokens: a secret inside an address or a longer word is left alone", () => {
    expect(maskSecrets("198.51.100.40", ["10"])).toBe("198.51.100.40");
    expect(maskSecrets("password 10 rejected for 198.51.100.40", ["10"])).toBe(
      "password [secret] rejected for 198.51.100.40",
    );
    expect(maskSecrets(`auth_pass "10", pw=10. '10'`, ["10"])).toBe(`auth_pass "[secret]", pw=[secret]. '[secret]'`);
    expect(maskSecrets("hunter2x hunter2", ["hunter2"])).toBe("hunter2x [secret]");
    // Punctuation of the secret's own joins a token only where the token goes on past it.
    expect(maskSecrets("host x.a.b and a.b.c, password a.b.", ["a.b"])).toBe(
      "host x.a.b and a.b.c, password [secret].",
    );
    expect(maskSecrets("pw=a=b", ["a=b"])).toBe("pw=[secret]");
  });

  test("a PEM private key in an error text is masked whole, whatever follows its last line", () => {
    const key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----\n";
    expect(maskSecrets(`cannot parse privateKey: ${key}at line 3`, [key])).toBe(
      "cannot parse privateKey: [secret]at line 3",
    );
    expect(maskSecrets(`key=${key.trim()}; retrying`, [key.trim()])).toBe("key=[secret]; retrying");
  });

  test("secrets sharing a part are masked as one", () => {
    expect(maskSecrets("said ab cd ef", ["ab cd", "cd ef"])).toBe("said [secret]");
  });

  test("registered secrets are masked everywhere", () => {
    registerSecret("vrrp-pass-123");
    expect(maskSecrets("auth_pass vrrp-pass-123")).toBe("auth_pass [secret]");
  });
});
