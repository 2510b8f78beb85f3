# The controller image: Node 24 slim, the packed cdk8s-inference package with its peer
# dependencies, run as an unprivileged user (the Pod Security Standard "restricted" needs a
# numeric non-root user; the ModelDeploymentController's pod runs as 65532).
#
#   npx projen package:js                      # writes dist/js/cdk8s-inference@<version>.jsii.tgz
#   docker build -t <registry>/cdk8s-inference-controller:<version> .
#   docker push <registry>/cdk8s-inference-controller:<version>
FROM node:24-slim
WORKDIR /opt/cdk8s-inference
COPY dist/js/*.tgz /tmp/package.tgz
RUN npm install --omit=dev --no-audit --no-fund --no-package-lock /tmp/package.tgz \
 && rm -f /tmp/package.tgz \
 && npm cache clean --force
USER 65532:65532
ENV NODE_ENV=production
ENTRYPOINT ["node", "/opt/cdk8s-inference/node_modules/cdk8s-inference/bin/cdk8s-inference"]
CMD ["controller", "--leader-elect"]
