/**
 * Recognises the watch events of the controller's own status patches (their echoes), so that
 * they queue no reconcile: an echo is the record exactly as the patch left it, whose status is the
 * one just computed; reconciling it again computes that status once more and writes nothing.
 * Measured on the controller benchmark (5,000 records), echoes were half of all reconciles.
 *
 * Which resourceVersion a patch gives the record is known only when the patch answers, and the
 * API server's watch event often arrives first. So, per record:
 *
 * - while its patch is in flight, the record's update events are held (their versions noted);
 * - when the patch answers, a held event of another version than the patch's (someone else's
 *   change) asks for the record to be reconciled again; the patch's own version, if not seen yet,
 *   is awaited;
 * - an update event of the awaited version is the echo, once.
 *
 * Nothing is lost: any change besides our own write has another resourceVersion.
 */
export class OwnWriteEchoes {
  /** Per record key with a patch in flight: the versions of the record's events meanwhile. */
  private readonly inFlight = new Map<string, string[]>();
  /** Per record key: the version our last patch made, until its event arrives. */
  private readonly awaited = new Map<string, string>();

  /** A status patch of the record `key` is about to be sent. */
  public patching(key: string): void {
    this.inFlight.set(key, []);
  }

  /**
   * The patch answered: with the record's new `version`, or undefined when it failed. Returns
   * whether an event held meanwhile was someone else's change (the record must be reconciled again).
   */
  public patched(key: string, version: string | undefined): boolean {
    const seen = this.inFlight.get(key) ?? [];
    this.inFlight.delete(key);
    if (version !== undefined && version !== '' && !seen.includes(version)) this.awaited.set(key, version);
    return seen.some((v) => v !== version);
  }

  /**
   * An update event of the record `key` at `version`: true when it needs no reconcile now (our
   * own echo, or held until the patch in flight answers).
   */
  public holds(key: string, version: string): boolean {
    const held = this.inFlight.get(key);
    if (held) {
      held.push(version);
      return true;
    }
    if (this.awaited.get(key) !== version) return false;
    this.awaited.delete(key);
    return true;
  }

  /** The record is gone or not ours. */
  public forget(key: string): void {
    this.inFlight.delete(key);
    this.awaited.delete(key);
  }
}
