// A checked DR real server (weight 3) of 198.51.100.49:80, shared by the checked-service plan tests.
export const checkedServiceId = { protocol: "tcp" as const, address: "198.51.100.49", port: 80 };
export const checkedServiceKey = "tcp:198.51.100.49:80";
export const checkedDestination = {
  service: checkedServiceId,
  address: "198.51.100.21",
  port: 80,
  forwarding: "dr" as const,
  weight: 3,
  upperThreshold: 0,
  lowerThreshold: 0,
};
export const checkedDestinationKey = `${checkedServiceKey}/198.51.100.21:80`;
