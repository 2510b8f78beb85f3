/**
 * How @bufbuild/cel, which types custom values by protobuf message, carries a Kubernetes CEL value
 * such as a quantity or a semver: a message `kubernetes.<Name>` holding the text it was parsed
 * from, declared at run time.
 */
import type * as Protobuf from '@bufbuild/protobuf';
import type * as ProtobufWkt from '@bufbuild/protobuf/wkt';

/** A registry with one message type, `kubernetes.<name>`, whose one field is the string `value`. */
export function kubernetesTextMessageRegistry(protobuf: typeof Protobuf, wkt: typeof ProtobufWkt, name: string): Protobuf.Registry {
  const file = protobuf.create(wkt.FileDescriptorProtoSchema, {
    name: `cdk8s_inference/kubernetes_${name.toLowerCase()}.proto`,
    package: 'kubernetes',
    syntax: 'proto3',
    messageType: [{
      name,
      field: [{ name: 'value', jsonName: 'value', number: 1, type: wkt.FieldDescriptorProto_Type.STRING, label: wkt.FieldDescriptorProto_Label.OPTIONAL }],
    }],
  });
  return protobuf.createFileRegistry(file, () => undefined);
}
