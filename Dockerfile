# Skirmish: one image with both programs, skirmish-server and skirmish-bots, and the web client.
# Build: docker build -t skirmish .     Run: docker run -p 8080:8080 skirmish
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p skirmish-server -p skirmish-bots

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin skirmish \
    && mkdir /data && chown skirmish /data
COPY --from=build /src/target/release/skirmish-server /src/target/release/skirmish-bots /usr/local/bin/
COPY web-client /srv/web-client
USER skirmish
ENV SKIRMISH_ADDR=0.0.0.0 \
    SKIRMISH_PORT=8080 \
    SKIRMISH_WEB_ROOT=/srv/web-client \
    SKIRMISH_DATABASE=/data/skirmish.db
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD curl -fsS "http://127.0.0.1:${SKIRMISH_PORT}/healthz" || exit 1
CMD ["skirmish-server"]
