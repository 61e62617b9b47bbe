// The fan-out figure's subscribers (docs/performance.md, "Realtime"): COUNT WebSocket connections
// to the embedded Pusher-protocol server, each subscribed to one channel, all read by one thread
// with epoll. Each read is timed as it returns from the kernel, before any parsing, and nothing
// else is done per frame but finding the event's round: one process standing for a thousand
// subscribers must not make the later ones wait on its own work for the earlier ones. The bench's
// Node client (scripts/lib/bench-websocket.ts) spends about twice this reader's CPU on a round of
// 1,000 frames, more than the server spends writing them, so the figure measured the client.
//
// Started by scripts/lib/bench-realtime-client.ts, compiled by scripts/bench-realtime.ts with the
// machine's C compiler (`cc`), and held to a WebSocket server by tests/realtime/fanout-reader.test.ts.
//
//   fanout-reader HOST PORT PATH COUNT CHANNEL EVENT PER_ADDRESS
//
// It connects from 127.0.x.y, a new address every PER_ADDRESS sockets, upgrades to a WebSocket
// (RFC 6455: text frames, masked when sent, pings answered; no extensions), and speaks Pusher
// protocol 7. With its parent it talks in lines, over stdin and stdout:
//   out  socket I SOCKET_ID        a connection is established;
//   in   auth I AUTH               the subscription's signature (the parent signs, as an app's auth
//                                  endpoint would), then it subscribes to CHANNEL;
//   out  ready                     every socket is subscribed;
//   in   expect R                  the next EVENT carries the data "R": time each socket's receipt;
//   out  times R K DUP T1 … TK     when every socket has it, or at once on `report`: K receipts,
//                                  DUP sockets that had it twice, each time CLOCK_MONOTONIC in ns
//                                  (Node's process.hrtime.bigint() reads the same clock);
//   in   quit                      it closes every connection and exits.
// Anything wrong (a refused upgrade, a closed connection, an error frame) goes to stderr, exit 1.
//
//   fanout-reader --floor COUNT CHANNEL EVENT
//
// The machine's floor for the figure: the same reader, with a C program in the server's place.
// It opens COUNT loopback TCP connections to itself and forks a writer holding their other ends,
// which writes each round's frame (the server's, byte for byte) to every connection in turn, one
// thread and one write(2) a connection, as the server does. No handshake, no subscription:
// `ready WRITER_PID` comes once the connections are open, and one more command starts a round:
//   in   publish R                 `expect R`, then the writer sends the round.
// What the server's figure spends beyond this one is its own (docs/performance.md, "Realtime").
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  int fd;
  unsigned char *buf; /* bytes read and not yet parsed into whole frames */
  size_t start, len, cap;
  long last_round; /* the last round this socket received, for duplicates */
} Sock;

static Sock *socks;
static int count;
static char event_key[256]; /* "event":"EVENT" */
static long current = -1;   /* the round being timed, -1 between rounds */
static long long *times;
static int got, dups;
static unsigned char chunk[256 * 1024];
static long long read_at; /* when the last read returned */
static uint32_t seed = 2463534242u;
static int floor_pipe = -1; /* --floor: the writer's commands */

static void fail(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fputs("fanout-reader: ", stderr);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
  exit(1);
}

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static uint32_t next_random(void) {
  seed ^= seed << 13;
  seed ^= seed >> 17;
  seed ^= seed << 5;
  return seed;
}

static void write_all(int fd, const unsigned char *data, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno == EAGAIN) {
      struct timespec pause = {0, 100000};
      nanosleep(&pause, NULL);
      continue;
    }
    if (w <= 0) fail("write: %s", strerror(errno));
    data += w;
    n -= (size_t)w;
  }
}

/* A client frame (RFC 6455 §5.3): final, masked. */
static void send_frame(Sock *s, int opcode, const unsigned char *payload, size_t n) {
  unsigned char *out = malloc(n + 14);
  size_t header = 2;
  out[0] = (unsigned char)(0x80 | opcode);
  if (n < 126) {
    out[1] = (unsigned char)(0x80 | n);
  } else if (n < 65536) {
    out[1] = 0x80 | 126;
    out[2] = (unsigned char)(n >> 8);
    out[3] = (unsigned char)n;
    header = 4;
  } else {
    out[1] = 0x80 | 127;
    for (int i = 0; i < 8; i++) out[2 + i] = (unsigned char)((uint64_t)n >> (56 - 8 * i));
    header = 10;
  }
  uint32_t mask = next_random();
  memcpy(out + header, &mask, 4);
  const unsigned char *m = out + header;
  for (size_t i = 0; i < n; i++) out[header + 4 + i] = payload[i] ^ m[i & 3];
  write_all(s->fd, out, header + 4 + n);
  free(out);
}

static void send_text(Sock *s, const char *text) { send_frame(s, 0x1, (const unsigned char *)text, strlen(text)); }

static void append(Sock *s, const unsigned char *data, size_t n) {
  if (s->start > 0 && s->start == s->len) s->start = s->len = 0;
  if (s->len + n + 1 > s->cap) {
    if (s->start > 0) {
      memmove(s->buf, s->buf + s->start, s->len - s->start);
      s->len -= s->start;
      s->start = 0;
    }
    /* One byte more than the bytes: a frame's payload can always be followed by a NUL. */
    while (s->len + n + 1 > s->cap) s->cap = s->cap ? s->cap * 2 : 4096;
    s->buf = realloc(s->buf, s->cap);
    if (!s->buf) fail("out of memory");
  }
  memcpy(s->buf + s->len, data, n);
  s->len += n;
}

/* Reads what the socket has (blocking or not); 0 when a non-blocking read would wait. */
static ssize_t read_into(Sock *s, int index) {
  ssize_t n;
  do n = read(s->fd, chunk, sizeof chunk);
  while (n < 0 && errno == EINTR);
  read_at = now_ns();
  if (n < 0 && errno == EAGAIN) return 0;
  if (n < 0) fail("socket %d: read: %s", index, strerror(errno));
  if (n == 0) fail("socket %d: the server closed the connection", index);
  append(s, chunk, (size_t)n);
  return n;
}

/* The next whole frame in the socket's buffer: 1 and its opcode and payload; 0 when it is not all there yet. */
static int next_frame(Sock *s, int index, int *opcode, char **payload, size_t *n) {
  size_t have = s->len - s->start;
  unsigned char *p = s->buf + s->start;
  if (have < 2) return 0;
  if (p[1] & 0x80) fail("socket %d: a server frame must not be masked", index);
  if (!(p[0] & 0x80)) fail("socket %d: a fragmented message (the server sends none)", index);
  uint64_t length = p[1] & 0x7f;
  size_t header = 2;
  if (length == 126) {
    if (have < 4) return 0;
    length = ((uint64_t)p[2] << 8) | p[3];
    header = 4;
  } else if (length == 127) {
    if (have < 10) return 0;
    length = 0;
    for (int i = 0; i < 8; i++) length = (length << 8) | p[2 + i];
    header = 10;
  }
  if (have < header + length) return 0;
  *opcode = p[0] & 0x0f;
  *payload = (char *)p + header;
  *n = (size_t)length;
  s->start += header + (size_t)length;
  return 1;
}

/* Parses the whole frames in the buffer; text frames go to `on_text`, which says whether to go on. */
static void drain(Sock *s, int index, int (*on_text)(Sock *, int, char *, size_t, long long), long long at) {
  int opcode;
  char *payload;
  size_t n;
  while (next_frame(s, index, &opcode, &payload, &n)) {
    if (opcode == 0x1) {
      /* A NUL after the payload for the searches, over the next frame's first byte or a spare one. */
      char saved = payload[n];
      payload[n] = '\0';
      int more = on_text(s, index, payload, n, at);
      payload[n] = saved;
      if (!more) break;
    } else if (opcode == 0x9) {
      send_frame(s, 0xA, (unsigned char *)payload, n);
    } else if (opcode == 0x8) {
      int code = n >= 2 ? ((unsigned char)payload[0] << 8) | (unsigned char)payload[1] : 1005;
      fail("socket %d: the server closed the connection with %d", index, code);
    } else if (opcode != 0xA) {
      fail("socket %d: unexpected opcode %d", index, opcode);
    }
  }
  if (s->start == s->len) s->start = s->len = 0;
}

static int has_event(const char *text, const char *name) {
  char key[256];
  snprintf(key, sizeof key, "\"event\":\"%s\"", name);
  return strstr(text, key) != NULL;
}

/* Setup: the text message `keep_text` stopped at. */
static char *last_text;
static int keep_text(Sock *s, int index, char *text, size_t n, long long at) {
  (void)s, (void)index, (void)at;
  last_text = strndup(text, n);
  return 0;
}

/* Blocks until the socket's next text message; pings are answered on the way. */
static char *read_text(Sock *s, int index) {
  free(last_text);
  last_text = NULL;
  for (;;) {
    drain(s, index, keep_text, 0);
    if (last_text) return last_text;
    read_into(s, index);
  }
}

static void print_times(void) {
  printf("times %ld %d %d", current, got, dups);
  for (int k = 0; k < got; k++) printf(" %lld", times[k]);
  putchar('\n');
  fflush(stdout);
  current = -1;
}

/* Measuring: a text frame. Only the awaited event's round is looked for. */
static int on_measured_text(Sock *s, int index, char *text, size_t n, long long at) {
  (void)n;
  if (strstr(text, event_key)) {
    char *data = strstr(text, "\"data\":\"");
    if (!data || current < 0 || strtol(data + 8, NULL, 10) != current) return 1;
    if (s->last_round == current) {
      dups++;
      return 1;
    }
    s->last_round = current;
    times[got++] = at;
    if (got == count) print_times();
  } else if (has_event(text, "pusher:ping")) {
    send_text(s, "{\"event\":\"pusher:pong\",\"data\":{}}");
  } else if (has_event(text, "pusher:error")) {
    fail("socket %d: %s", index, text);
  }
  return 1;
}

static Sock *connect_socket(const char *host, int port, const char *path, int index, int per_address) {
  Sock *s = &socks[index];
  s->last_round = -1;
  s->fd = socket(AF_INET, SOCK_STREAM, 0);
  if (s->fd < 0) fail("socket: %s", strerror(errno));
  int k = index / per_address;
  char source[32];
  snprintf(source, sizeof source, "127.0.%d.%d", 1 + k / 250, 1 + k % 250);
  struct sockaddr_in from = {.sin_family = AF_INET};
  inet_pton(AF_INET, source, &from.sin_addr);
  if (bind(s->fd, (struct sockaddr *)&from, sizeof from)) fail("bind %s: %s", source, strerror(errno));
  struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  if (inet_pton(AF_INET, host, &to.sin_addr) != 1) fail("not an IPv4 address: %s", host);
  if (connect(s->fd, (struct sockaddr *)&to, sizeof to)) fail("connect: %s", strerror(errno));
  int one = 1;
  setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  /* The server checks the upgrade, not the key: a fixed one is as good as a random one here. */
  char request[2048];
  int n = snprintf(request, sizeof request,
                   "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   "Sec-WebSocket-Key: c291cS1mYW5vdXQtcmVhZA==\r\nSec-WebSocket-Version: 13\r\n\r\n",
                   path, host, port);
  write_all(s->fd, (unsigned char *)request, (size_t)n);
  for (;;) {
    read_into(s, index);
    unsigned char *end = memmem(s->buf, s->len, "\r\n\r\n", 4);
    if (!end) {
      if (s->len > 16384) fail("socket %d: handshake answer too long", index);
      continue;
    }
    if (s->len < 12 || memcmp(s->buf, "HTTP/1.1 101", 12) != 0)
      fail("socket %d: handshake answered %.12s", index, (char *)s->buf);
    s->start = (size_t)(end + 4 - s->buf);
    return s;
  }
}

static void read_line(char *line, size_t size) {
  if (!fgets(line, (int)size, stdin)) fail("the parent closed stdin");
  line[strcspn(line, "\n")] = '\0';
}

/* Times the round `r` from here on. */
static void expect_round(long r) {
  current = r;
  got = dups = 0;
}

/* Measuring: one command from the parent. */
static int command(const char *line) {
  if (strncmp(line, "expect ", 7) == 0) {
    expect_round(strtol(line + 7, NULL, 10));
  } else if (strncmp(line, "publish ", 8) == 0 && floor_pipe >= 0) {
    expect_round(strtol(line + 8, NULL, 10));
    char round[32];
    int n = snprintf(round, sizeof round, "%ld\n", current);
    if (write(floor_pipe, round, (size_t)n) != n) fail("the floor's writer: %s", strerror(errno));
  } else if (strcmp(line, "report") == 0) {
    if (current >= 0) print_times();
  } else if (strcmp(line, "quit") == 0) {
    return 0;
  } else {
    fail("unknown command: %s", line);
  }
  return 1;
}

/* The server's subscribers: COUNT connections, each upgraded and subscribed to CHANNEL. */
static void subscribe_all(const char *host, int port, const char *path, const char *channel, int per_address) {
  char line[8192];
  for (int i = 0; i < count; i++) {
    Sock *s = connect_socket(host, port, path, i, per_address);
    char *text = read_text(s, i);
    if (!has_event(text, "pusher:connection_established")) fail("socket %d: expected connection_established: %s", i, text);
    char *id = strstr(text, "socket_id");
    if (!id) fail("socket %d: no socket_id: %s", i, text);
    id += 9;
    while (*id && !(*id >= '0' && *id <= '9')) id++;
    size_t idLength = strspn(id, "0123456789.");
    printf("socket %d %.*s\n", i, (int)idLength, id);
    fflush(stdout);
    read_line(line, sizeof line);
    char prefix[32];
    int prefixLength = snprintf(prefix, sizeof prefix, "auth %d ", i);
    if (strncmp(line, prefix, (size_t)prefixLength) != 0) fail("expected `%s…`, got `%s`", prefix, line);
    char subscribe[8192 + 512];
    snprintf(subscribe, sizeof subscribe, "{\"event\":\"pusher:subscribe\",\"data\":{\"channel\":\"%s\",\"auth\":\"%s\"}}",
             channel, line + prefixLength);
    send_text(s, subscribe);
    for (;;) {
      text = read_text(s, i);
      if (has_event(text, "pusher_internal:subscription_succeeded")) break;
      if (has_event(text, "pusher:error") || has_event(text, "pusher:subscription_error"))
        fail("socket %d: %s", i, text);
    }
  }
  free(last_text);
  last_text = NULL;
}

/* --floor: COUNT loopback connections to this program, whose other ends a forked writer holds. */
static pid_t open_floor(const char *channel, const char *event) {
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in at = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t size = sizeof at;
  if (listener < 0 || bind(listener, (struct sockaddr *)&at, sizeof at) || listen(listener, 64) ||
      getsockname(listener, (struct sockaddr *)&at, &size))
    fail("listen: %s", strerror(errno));
  int *ends = calloc((size_t)count, sizeof *ends);
  int one = 1;
  for (int i = 0; i < count; i++) {
    socks[i].last_round = -1;
    socks[i].fd = socket(AF_INET, SOCK_STREAM, 0);
    if (socks[i].fd < 0 || connect(socks[i].fd, (struct sockaddr *)&at, sizeof at)) fail("connect: %s", strerror(errno));
    setsockopt(socks[i].fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ends[i] = accept(listener, NULL, NULL);
    if (ends[i] < 0) fail("accept: %s", strerror(errno));
    /* As the server's sockets: Node sets no delay on every upgraded connection. */
    setsockopt(ends[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  close(listener);
  int commands[2];
  if (pipe(commands)) fail("pipe: %s", strerror(errno));
  fflush(stdout);
  pid_t writer = fork();
  if (writer < 0) fail("fork: %s", strerror(errno));
  if (writer > 0) {
    close(commands[0]);
    for (int i = 0; i < count; i++) close(ends[i]);
    free(ends);
    floor_pipe = commands[1];
    return writer;
  }
  /* The writer: a round's number on each line; the frame is made once and written to every end. */
  close(commands[1]);
  for (int i = 0; i < count; i++) close(socks[i].fd);
  FILE *in = fdopen(commands[0], "r");
  char line[64];
  unsigned char frame[1024];
  while (fgets(line, sizeof line, in)) {
    int n = snprintf((char *)frame + 4, sizeof frame - 4, "{\"event\":\"%s\",\"channel\":\"%s\",\"data\":\"%ld\"}",
                     event, channel, strtol(line, NULL, 10));
    if (n < 0 || n >= (int)sizeof frame - 4) fail("the floor's frame is too long");
    /* RFC 6455 §5.2, as the server's: final, unmasked, a 7- or 16-bit length before the payload. */
    unsigned char *start = frame + 2;
    if (n >= 126) {
      start = frame;
      start[1] = 126;
      start[2] = (unsigned char)(n >> 8);
      start[3] = (unsigned char)n;
    } else {
      start[1] = (unsigned char)n;
    }
    start[0] = 0x81;
    size_t length = (size_t)(frame + 4 + n - start);
    for (int i = 0; i < count; i++) write_all(ends[i], start, length);
  }
  _exit(0);
}

int main(int argc, char **argv) {
  int floor = argc == 5 && strcmp(argv[1], "--floor") == 0;
  if (!floor && argc != 8)
    fail("usage: fanout-reader HOST PORT PATH COUNT CHANNEL EVENT PER_ADDRESS, or --floor COUNT CHANNEL EVENT");
  count = atoi(argv[floor ? 2 : 4]);
  const char *channel = argv[floor ? 3 : 5], *event = argv[floor ? 4 : 6];
  if (count < 1) fail("COUNT is a whole number ≥ 1");
  snprintf(event_key, sizeof event_key, "\"event\":\"%s\"", event);
  seed ^= (uint32_t)now_ns() ^ (uint32_t)getpid();
  socks = calloc((size_t)count, sizeof *socks);
  times = calloc((size_t)count, sizeof *times);
  pid_t writer = 0;
  if (floor) {
    writer = open_floor(channel, event);
  } else {
    int port = atoi(argv[2]), per_address = atoi(argv[7]);
    if (per_address < 1 || port < 1) fail("PORT and PER_ADDRESS are whole numbers ≥ 1");
    subscribe_all(argv[1], port, argv[3], channel, per_address);
  }
  char line[8192];

  int ep = epoll_create1(0);
  if (ep < 0) fail("epoll: %s", strerror(errno));
  for (int i = 0; i < count; i++) {
    fcntl(socks[i].fd, F_SETFL, fcntl(socks[i].fd, F_GETFL) | O_NONBLOCK);
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, socks[i].fd, &ev)) fail("epoll_ctl: %s", strerror(errno));
  }
  /* stdin: the parent's commands, read without stdio's buffer from here on. */
  fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
  struct epoll_event in = {.events = EPOLLIN, .data.u32 = UINT32_MAX};
  if (epoll_ctl(ep, EPOLL_CTL_ADD, 0, &in)) fail("epoll_ctl stdin: %s", strerror(errno));
  if (floor) printf("ready %d\n", (int)writer);
  else printf("ready\n");
  fflush(stdout);

  size_t pending = 0;
  struct epoll_event events[1024];
  for (;;) {
    int ready = epoll_wait(ep, events, 1024, -1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) fail("epoll_wait: %s", strerror(errno));
    for (int e = 0; e < ready; e++) {
      uint32_t i = events[e].data.u32;
      if (i != UINT32_MAX) {
        Sock *s = &socks[i];
        if (read_into(s, (int)i) > 0) drain(s, (int)i, on_measured_text, read_at);
        continue;
      }
      ssize_t n = read(0, line + pending, sizeof line - 1 - pending);
      if (n == 0) fail("the parent closed stdin");
      if (n < 0) {
        if (errno == EAGAIN || errno == EINTR) continue;
        fail("stdin: %s", strerror(errno));
      }
      pending += (size_t)n;
      line[pending] = '\0';
      char *start = line, *end;
      while ((end = strchr(start, '\n'))) {
        *end = '\0';
        if (!command(start)) {
          for (int k = 0; k < count; k++) {
            if (!floor) send_frame(&socks[k], 0x8, (const unsigned char *)"\x03\xe8", 2);
            close(socks[k].fd);
          }
          if (floor) {
            close(floor_pipe);
            waitpid(writer, NULL, 0);
          }
          return 0;
        }
        start = end + 1;
      }
      pending = strlen(start);
      memmove(line, start, pending);
      if (pending == sizeof line - 1) fail("a command line too long");
    }
  }
}
