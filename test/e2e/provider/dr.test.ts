import { describeScenario, drScenario } from "./scenario";

describeScenario(drScenario("dr"));
