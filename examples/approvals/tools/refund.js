// The refund tool of the approvals example: reads {"order", "amount"} on stdin and answers what
// it refunded. A stand-in for a payment API (the docs run it mocked: refund.mocks.json).
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { order, amount } = JSON.parse(input);
  process.stdout.write(JSON.stringify({ order, refunded: amount }));
});
