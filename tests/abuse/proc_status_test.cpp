#include "tests/abuse/proc_status.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace sr::abuse {
namespace {

// The lines around the two figures as Linux 6 writes them (tabs after the colon, right-aligned numbers).
constexpr const char* kStatus =
    "Name:\tstackrace-serve\n"
    "VmPeak:\t  512000 kB\n"
    "VmHWM:\t  123456 kB\n"
    "VmRSS:\t   98765 kB\n"
    "RssAnon:\t   80000 kB\n"
    "Threads:\t4\n";

TEST(ProcStatus, ReadsResidentAndHighWaterMarkInKilobytes) {
  const auto m = parse_proc_status(kStatus);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->rss_kb, 98'765);
  EXPECT_EQ(m->hwm_kb, 123'456);
}

TEST(ProcStatus, AMissingFigureOrAnotherUnitIsNoAnswer) {
  EXPECT_FALSE(parse_proc_status("Name:\tkthreadd\nThreads:\t1\n"));
  EXPECT_FALSE(parse_proc_status("VmHWM:\t 1 kB\nVmRSS:\t 2 MB\n"));
  EXPECT_FALSE(parse_proc_status("VmHWM:\t 1 kB\nVmRSS:\t x kB\n"));
  EXPECT_FALSE(parse_proc_status(""));
}

TEST(ProcStatus, APrefixOfAnotherKeyIsNotTheKey) {
  // "VmRSSx" must not be read as VmRSS.
  EXPECT_FALSE(parse_proc_status("VmHWM:\t 1 kB\nVmRSSx:\t 2 kB\n"));
}

TEST(ProcStatus, ThisProcessHasFigures) {
  const auto m = read_memory(::getpid());
  ASSERT_TRUE(m.has_value());
  EXPECT_GT(m->rss_kb, 0);
  EXPECT_GE(m->hwm_kb, m->rss_kb);
}

}  // namespace
}  // namespace sr::abuse
