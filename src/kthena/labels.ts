/**
 * The pod labels by which one Kthena construct selects the pods of another.
 *
 * Kthena's own pod labels (`modelserving.volcano.sh/*`) are added by its controller when it
 * creates the pods, and its ModelBooster selects by the booster's UID; neither is known when the
 * YAML is written. So `KthenaModelServing` writes these labels into every pod template it
 * renders, and `KthenaModelServer.selectServing()` selects by them: the selection is fixed at
 * build time.
 *
 * - every pod of a ModelServing: `MODEL_SERVING` = the ModelServing's name, `ROLE` = its role;
 * - entry pods only (the pod of a role instance that serves requests): `ENTRY` = `"true"`.
 *
 * Worker pods of a multi-node role carry no `ENTRY` label: they run engine workers, not the HTTP
 * server, so a router must never send a request to them.
 */
export class KthenaPodLabels {
  /** Name of the ModelServing the pod belongs to. */
  public static readonly MODEL_SERVING = 'inference.cdk8s.io/kthena-model-serving';

  /** Name of the ModelServing role the pod belongs to (the same key the Kthena provider uses). */
  public static readonly ROLE = 'inference.cdk8s.io/kthena-role';

  /** `"true"` on entry pods, the pods that serve requests. */
  public static readonly ENTRY = 'inference.cdk8s.io/kthena-entry';

  /**
   * Kthena's controller labels every pod with its ServingGroup (`<modelserving>-<index>`). A
   * ModelServer pairs prefill with decode pods of the same group by it (`pdGroup.groupKey`).
   */
  public static readonly KTHENA_SERVING_GROUP = 'modelserving.volcano.sh/group-name';

  /**
   * Prefix of the labels Kthena's controller puts on the pods it creates (name, group, role,
   * role id, revision, entry); a pod template label under it would compete with the controller's.
   */
  public static readonly KTHENA_CONTROLLER_PREFIX = 'modelserving.volcano.sh/';

  private constructor() {}
}
