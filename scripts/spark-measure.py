"""Measures a JSON Lines feed with Apache Spark: every partition of the feed is piped
through one `textrender measure` process (RDD.pipe), and the results are saved as Spark's
part files, whose concatenation in order equals `textrender measure FEED [options]`.

    spark-measure.py TEXTRENDER FEED OUTDIR [measure options]

scripts/spark-measure.sh installs what this needs and runs it in local mode; on a cluster,
run it with spark-submit (see docs/SPARK.md, "A cluster").

SPARK_MEASURE_MASTER sets the master (unset: spark-submit's or Spark's default);
SPARK_MEASURE_PARTITIONS asks for at least that many partitions (unset: Spark's choice).
The exit status is 0, 2 when `textrender measure` reported bad lines (all good posts are
still written), or 1 when the job failed.
"""

import os
import shlex
import sys

# What the wrapper around `textrender measure` prints on stdout when measure's status was 2
# (bad lines, all reported on stderr): never a line measure writes (those are JSON objects).
BAD_LINES_MARKER = "spark-measure: bad lines"

# Environment variables passed on to `textrender measure`: RDD.pipe starts it with only
# the variables it is given.
PASSED_ON = ("HOME", "TEXTKITLITE_FONTS", "TEXTKITLITE_EMOTICONS", "FONTCONFIG_FILE", "FONTCONFIG_PATH")


def line_text(raw):
    """A feed line as text for RDD.pipe, which writes every element as UTF-8.

    A line that is not valid UTF-8 cannot go through unchanged; measure rejects it, so it
    is replaced by a line measure rejects too: a JSON string, not an object, which measure
    reports as 'expected a JSON object, got "invalid UTF-8 at byte offset N"'."""
    raw = bytes(raw)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return '"invalid UTF-8 at byte offset %d"' % error.start


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: spark-measure.py TEXTRENDER FEED OUTDIR [measure options]")
    textrender, feed, outdir, options = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]

    from pyspark.sql import SparkSession
    from pyspark.sql.functions import col

    builder = SparkSession.builder.appName("textrender measure").config("spark.ui.enabled", "false") \
        .config("spark.ui.showConsoleProgress", str(sys.stderr.isatty()).lower())
    if os.environ.get("SPARK_MEASURE_MASTER"):
        builder = builder.master(os.environ["SPARK_MEASURE_MASTER"])
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel(os.environ.get("SPARK_MEASURE_LOG_LEVEL", "WARN"))
    # SPARK_MEASURE_PARTITIONS splits (default: one per core) of at most 128 MB. Spark
    # splits a file into pieces of (size + open cost) / partitions bytes: the default open
    # cost (4 MB) would leave a short last piece, and none at all a last piece of a few
    # bytes; an open cost of one byte per partition gives exactly that many pieces.
    partitions = int(os.environ.get("SPARK_MEASURE_PARTITIONS") or 0) or spark.sparkContext.defaultParallelism
    spark.conf.set("spark.sql.files.minPartitionNum", str(partitions))
    spark.conf.set("spark.sql.files.openCostInBytes", str(partitions))
    try:
        # One row per "\n"-terminated line, as measure reads it: a "\r" stays in its line,
        # a last line without "\n" is kept, and the line's bytes are read as they are (the
        # cast to binary), so a line of invalid UTF-8 is not silently repaired. One file is
        # read in order: its splits are partitions in file order, each split's lines in order.
        # The path is taken literally, not as a glob of several files (whose order Spark does
        # not keep).
        literal = "".join("\\" + c if c in "\\{}[]*?" else c for c in feed)
        lines = spark.read.option("lineSep", "\n").text(literal) \
            .select(col("value").cast("binary")).rdd.map(lambda row: line_text(row[0]))
        if lines.getNumPartitions() == 0:  # an empty feed: still one (empty) part file
            lines = spark.sparkContext.parallelize([], 1)

        status = 'status=0; "$@" || status=$?; [ "$status" = 2 ] && { echo "%s"; exit 0; }; exit "$status"' % BAD_LINES_MARKER
        command = shlex.join(["/bin/sh", "-c", status, "sh", textrender, "measure", "-", *options])
        env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
        env.update({name: os.environ[name] for name in PASSED_ON if name in os.environ})

        bad_partitions = spark.sparkContext.accumulator(0)

        def keep(line):
            if line == BAD_LINES_MARKER:
                bad_partitions.add(1)
                return False
            return True

        # One measure process per partition, fed the partition's lines in order; any exit
        # status other than 0 or 2 fails the task (checkCode), and so the job.
        lines.pipe(command, env=env, checkCode=True).filter(keep).saveAsTextFile(outdir)
    except Exception as error:  # the Spark job failed: its log above says why
        print("spark-measure: failed: %s" % str(error).strip().splitlines()[0], file=sys.stderr)
        spark.stop()
        if os.path.isdir(outdir) and not os.listdir(outdir):
            os.rmdir(outdir)  # what a failed job leaves: a later run may use the name
        return 1
    spark.stop()
    if bad_partitions.value:
        print("spark-measure: bad lines were skipped (reported above by textrender; their line "
              "numbers count from the first line of their partition)", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
