// Test tool: the state file's secrets provider. The CLI's state holds a secret as {[SIG_KEY]: SECRET_SIG, ciphertext},
// encrypted by the stack's secrets provider; this one is AES-256-GCM ("v1:<nonce>:<ciphertext and tag>", base64, as
// the CLI's symmetric crypter writes it) with a random key per state file, kept beside it (0600). Not product code.
import * as crypto from "crypto";
import * as fs from "fs";
import { isSecretWrapper, PropertyMap, SECRET_SIG, SIG_KEY } from "./provider-host";

/** A secret as the state file holds it. */
export interface SealedSecret {
  [SIG_KEY]: typeof SECRET_SIG;
  ciphertext: string;
}

function isSealed(v: unknown): v is SealedSecret {
  return isSecretWrapper(v) && typeof (v as Record<string, unknown>).ciphertext === "string";
}

const ALGORITHM = "aes-256-gcm";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class StateSecrets {
  private key?: Buffer;
  /**
   * Plaintext (JSON) -> ciphertext, and value -> envelope, as the CLI's caching crypter: an unchanged secret keeps its
   * ciphertext, and a state write per step neither encrypts nor re-serializes every resource's connection again.
   */
  private readonly sealed = new Map<string, string>();
  private readonly sealedValues = new WeakMap<object, SealedSecret>();

  constructor(
    /** The key file: the state file's path plus ".key". */
    readonly keyPath: string,
  ) {}

  /** `value` sealed; an object must not change after (state values are replaced, never edited in place). */
  seal(value: unknown): SealedSecret {
    const isObject = typeof value === "object" && value !== null;
    const known = isObject ? this.sealedValues.get(value) : undefined;
    if (known) return known;
    const plaintext = JSON.stringify(value);
    let ciphertext = this.sealed.get(plaintext);
    if (ciphertext === undefined) {
      const nonce = crypto.randomBytes(NONCE_BYTES);
      const cipher = crypto.createCipheriv(ALGORITHM, this.keyFor("seal"), nonce);
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
      ciphertext = `v1:${nonce.toString("base64")}:${body.toString("base64")}`;
      this.sealed.set(plaintext, ciphertext);
    }
    const envelope: SealedSecret = { [SIG_KEY]: SECRET_SIG, ciphertext };
    if (isObject) this.sealedValues.set(value, envelope);
    return envelope;
  }

  open(secret: SealedSecret): unknown {
    const [version, nonce, body] = secret.ciphertext.split(":");
    if (version !== "v1" || nonce === undefined || body === undefined) {
      throw new Error(`state file: a secret's ciphertext is not "v1:<nonce>:<ciphertext>"`);
    }
    const bytes = Buffer.from(body, "base64");
    const decipher = crypto.createDecipheriv(ALGORITHM, this.keyFor("open"), Buffer.from(nonce, "base64"));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plaintext = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]);
    const text = plaintext.toString("utf8");
    this.sealed.set(text, secret.ciphertext);
    return JSON.parse(text);
  }

  /** `props` with the values at `keys` sealed (a resource's inputs or outputs, kept plain in memory). */
  sealKeys(props: PropertyMap, keys: readonly string[]): PropertyMap {
    return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, keys.includes(k) ? this.seal(v) : v]));
  }

  /** The reverse of sealKeys: the plain values, and the keys that were sealed. */
  openKeys(props: PropertyMap): { values: PropertyMap; keys: string[] } {
    const keys = Object.keys(props).filter((k) => isSealed(props[k]));
    const values = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, isSealed(v) ? this.open(v) : v]));
    return { values, keys };
  }

  /** Every secret wrapper `{sig, value}` in `v` sealed (values in wire form: the stack outputs). */
  sealWrappers(v: unknown): unknown {
    if (isSecretWrapper(v)) return this.seal(v.value);
    return mapChildren(v, (child) => this.sealWrappers(child));
  }

  /** The reverse of sealWrappers. */
  openWrappers(v: unknown): unknown {
    if (isSealed(v)) return { [SIG_KEY]: SECRET_SIG, value: this.open(v) };
    return mapChildren(v, (child) => this.openWrappers(child));
  }

  /** The key, made on the first secret sealed; a state holding secrets cannot be read without it. */
  private keyFor(use: "seal" | "open"): Buffer {
    if (this.key) return this.key;
    if (fs.existsSync(this.keyPath)) {
      this.key = Buffer.from(fs.readFileSync(this.keyPath, "utf8").trim(), "base64");
    } else if (use === "open") {
      throw new Error(`state file: its secrets cannot be decrypted, the key file ${this.keyPath} is missing`);
    } else {
      this.key = crypto.randomBytes(32);
      fs.writeFileSync(this.keyPath, this.key.toString("base64") + "\n", { mode: 0o600, flag: "wx" });
    }
    return this.key;
  }
}

function mapChildren(v: unknown, f: (child: unknown) => unknown): unknown {
  if (Array.isArray(v)) return v.map(f);
  if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, f(e)]));
  return v;
}
