# One image with both programs: skirmish-server and skirmish-bots.
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p skirmish-server -p skirmish-bots

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends curl ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/target/release/skirmish-server /src/target/release/skirmish-bots /usr/local/bin/
COPY web-client /srv/web-client
EXPOSE 8080
CMD ["skirmish-server", "--addr", "0.0.0.0", "--bots", "2", "--web-root", "/srv/web-client"]
