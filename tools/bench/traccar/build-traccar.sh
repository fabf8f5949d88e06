#!/usr/bin/env bash
# Build Traccar (github.com/traccar/traccar) from its source without Gradle:
#  1. TRACCAR_SRC: an unpacked checkout of Traccar's source (6.14.5 was measured; commit in $T/COMMIT if given)
#  2. runtime classpath: mvn dependency:copy-dependencies on pom.xml (build.gradle's list, same versions)
#  3. protobuf classes: protoc from Maven Central (com.google.protobuf:protoc:4.35.0:exe:linux-x86_64)
#  4. javac --release 21 (build.gradle asks Java 21) with the machine's Temurin 25 JDK
# Usage: TRACCAR_SRC=/path/to/traccar ./build-traccar.sh   (output in $TRACCAR_HOME, default ./.traccar beside the checkout it is run from)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
T=${TRACCAR_HOME:-$PWD/.traccar}
JDK=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
: "${TRACCAR_SRC:?set TRACCAR_SRC to the unpacked source of Traccar}"
mkdir -p "$T"; ln -sfn "$TRACCAR_SRC" "$T/src"
cd "$HERE"
mvn -q -B dependency:copy-dependencies -DoutputDirectory="$T/lib" -DincludeScope=runtime
mvn -q -B dependency:copy -Dartifact=com.google.protobuf:protoc:4.35.0:exe:linux-x86_64 -DoutputDirectory="$T/protoc"
PROTOC="$T/protoc/protoc-4.35.0-linux-x86_64.exe"; chmod +x "$PROTOC"
rm -rf "$T/gen" "$T/classes"; mkdir -p "$T/gen" "$T/classes"
"$PROTOC" --proto_path="$T/src/src/main/proto" --java_out="$T/gen" "$T"/src/src/main/proto/*.proto
find "$T/src/src/main/java" "$T/gen" -name '*.java' > "$T/sources.txt"
"$JDK/bin/javac" --release 21 -encoding UTF-8 -nowarn -proc:none -J-Xmx3g -cp "$T/lib/*" -d "$T/classes" @"$T/sources.txt"
cp -r "$T/src/src/main/resources/." "$T/classes/"
echo "built: $(wc -l < "$T/sources.txt") sources, $(ls "$T/lib" | wc -l) jars in $T"
